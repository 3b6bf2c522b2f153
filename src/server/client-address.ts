import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The address a request comes from, for rate limits. With `trustedProxies` = 0 it is the socket's
 * peer; behind N trusted proxies it is the entry N places from the right of X-Forwarded-For (the
 * ones further left were written by the client and prove nothing).
 */
export function clientAddress(c: Context, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const forwarded = (c.req.header('X-Forwarded-For') ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    const address = forwarded[forwarded.length - trustedProxies];
    if (address) return address;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in tests has no socket.
    return 'unknown';
  }
}
