import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Queryable } from '#server/platform/db/database.ts';
import { keyedHash } from '#server/platform/secrets.ts';
import { ApiError } from './api-error.ts';
import type { AppEnv } from './context.ts';
import { createLocalCounter } from './local-rate-limit.ts';
import { hitRateLimit } from './rate-limit-counter.ts';

export interface Limit {
  hits: number;
  windowSeconds: number;
}

/** One count: the limit's name, its numbers, and whom it counts (a client address, an email, an account id). */
export interface LimitHit {
  name: string;
  limit: Limit;
  subject: string;
}

export interface RateLimiter {
  /** Counts each hit and throws TOO_MANY_REQUESTS, with the longest Retry-After, when any is over. */
  enforce(hits: readonly LimitHit[]): Promise<void>;
  /** Forgets the hits counted under `name` for `subject`: its window starts afresh. */
  clear(name: string, subject: string): Promise<void>;
  /** Middleware counting each request under the requester's address. */
  perClient(name: string, limit: Limit | (() => Limit)): ReturnType<typeof createMiddleware<AppEnv>>;
  /**
   * The same, counted by this instance alone, in memory: for a request that stores nothing and costs
   * only this instance's processor, where the shared count's statement would cost more than the
   * request itself (docs/decisions/173).
   */
  perClientHere(name: string, limit: Limit | (() => Limit)): ReturnType<typeof createMiddleware<AppEnv>>;
}

/** The row a limit counts `subject` under: its name and a keyed hash of the subject. */
export const limitKey = (secret: Buffer, name: string, subject: string) =>
  `${name}:${keyedHash(secret, 'rate-limit', name, subject)}`;

/**
 * The one rate limiter: fixed windows in the database table every instance shares, keyed by the
 * limit's name and a keyed hash of its subject, so the table never holds an address or an email.
 */
export function createRateLimiter(db: Queryable, secret: Buffer): RateLimiter {
  const here = createLocalCounter();
  const enforce = async (hits: readonly LimitHit[]) => {
    let wait = 0;
    for (const { name, limit, subject } of hits) {
      const key = limitKey(secret, name, subject);
      const result = await hitRateLimit(db, key, limit.hits, limit.windowSeconds);
      if (!result.allowed) wait = Math.max(wait, result.retryAfterSeconds);
    }
    if (wait > 0) throw new ApiError(429, 'TOO_MANY_REQUESTS', { headers: { 'Retry-After': String(wait) } });
  };
  return {
    enforce,
    async clear(name, subject) {
      await db.query('DELETE FROM rate_limits WHERE key = $1', [limitKey(secret, name, subject)]);
    },
    perClient: (name, limit) =>
      createMiddleware<AppEnv>(async (c, next) => {
        await enforce([{ name, limit: typeof limit === 'function' ? limit() : limit, subject: clientOf(c) }]);
        await next();
      }),
    perClientHere: (name, limit) =>
      createMiddleware<AppEnv>(async (c, next) => {
        const { hits, windowSeconds } = typeof limit === 'function' ? limit() : limit;
        const result = here.hit(`${name}:${clientOf(c)}`, hits, windowSeconds);
        if (!result.allowed) {
          throw new ApiError(429, 'TOO_MANY_REQUESTS', {
            headers: { 'Retry-After': String(result.retryAfterSeconds) },
          });
        }
        await next();
      }),
  };
}

const clientOf = (c: Context<AppEnv>) => c.var.clientAddress;
