import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { Database } from '#server/platform/db/database.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Headers a proxy adds. Behind nginx every request reaches Node from loopback, so a request that
 * carries one came from elsewhere, whatever its socket says; the commands send none.
 */
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'via'];

/**
 * Whether a command (`npm run staff`, `npm run backup`) may be asked of this server: only with the
 * embedded database (with PostgreSQL the commands open the database themselves and never ask a
 * server), only from this machine, and never through a proxy. The generated nginx configuration
 * refuses these paths as well.
 */
export function fromThisMachine(c: Context, database: Database['kind']): boolean {
  if (database !== 'pglite') return false;
  if (PROXY_HEADERS.some((name) => c.req.header(name) !== undefined)) return false;
  try {
    return LOOPBACK.has(getConnInfo(c).remote.address ?? '');
  } catch {
    // app.request() in tests has no socket: it is this process.
    return true;
  }
}
