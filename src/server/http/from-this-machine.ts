import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Headers a proxy adds. Behind nginx every request reaches Node from loopback, so a request that
 * carries one came from elsewhere, whatever its socket says; a command or a scraper on this
 * machine sends none.
 */
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'via'];

/**
 * Whether a request comes from this machine and through no proxy: from a loopback address and
 * without any header a proxy adds. What the staff command's endpoint and /metrics trust without a
 * token; the generated nginx configuration refuses both paths as well.
 */
export function fromThisMachine(c: Context): boolean {
  if (PROXY_HEADERS.some((name) => c.req.header(name) !== undefined)) return false;
  try {
    return LOOPBACK.has(getConnInfo(c).remote.address ?? '');
  } catch {
    // app.request() in tests has no socket: it is this process.
    return true;
  }
}
