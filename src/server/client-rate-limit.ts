import type { Context } from 'hono';
import { apiError } from './app.ts';
import { clientAddress } from './client-address.ts';
import type { Queryable } from './db/database.ts';
import { hitRateLimit } from './db/rate-limits.ts';

/**
 * Counts one request of this client (by address) for `action`, in the table every instance shares.
 * Returns the 429 TOO_MANY_REQUESTS answer with Retry-After when it is over `hits` per window, else
 * null and the handler goes on.
 */
export async function refuseOverLimit(
  c: Context,
  options: { db: Queryable; trustedProxies: number },
  action: string,
  limit: { hits: number; windowSeconds: number },
): Promise<Response | null> {
  const key = `${action}:${clientAddress(c, options.trustedProxies)}`;
  const result = await hitRateLimit(options.db, key, limit.hits, limit.windowSeconds);
  if (result.allowed) return null;
  return c.json(apiError('TOO_MANY_REQUESTS'), 429, { 'Retry-After': String(result.retryAfterSeconds) });
}
