import { deleteCounting, type Queryable } from '#server/platform/db/database.ts';
import type { JobDefinitions } from '#server/platform/jobs/jobs.ts';

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window ends and hits are allowed again; 0 when allowed. */
  retryAfterSeconds: number;
}

// One statement, so the row lock PostgreSQL takes on conflict orders concurrent hits from every
// instance and none is lost. statement_timestamp() rather than now(): inside a long transaction
// now() would still be the time the transaction began. The count stops one above the limit, so a
// flood of refused hits can never overflow it.
const HIT = `
  INSERT INTO rate_limits AS r (key, hits, expires_at)
  VALUES ($1, 1, statement_timestamp() + $3::double precision * interval '1 second')
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN r.expires_at <= statement_timestamp() THEN 1 ELSE least(r.hits, $2::integer) + 1 END,
    expires_at = CASE WHEN r.expires_at <= statement_timestamp() THEN excluded.expires_at ELSE r.expires_at END
  RETURNING
    r.hits <= $2::integer AS allowed,
    greatest(1, ceil(extract(epoch FROM r.expires_at - statement_timestamp())))::integer AS wait`;

/** Counts one hit on `key` and says whether it is within `limit` hits per `windowSeconds`. */
export async function hitRateLimit(
  db: Queryable,
  key: string,
  limit: number,
  windowSeconds: number,
): Promise<RateLimitResult> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Rate limit must be a positive integer: ${limit}`);
  if (!(windowSeconds > 0)) throw new RangeError(`Rate limit window must be positive: ${windowSeconds}`);
  const [row] = await db.query<{ allowed: boolean; wait: number }>(HIT, [key, limit, windowSeconds]);
  if (!row) throw new Error('Rate limit upsert returned no row');
  return { allowed: row.allowed, retryAfterSeconds: row.allowed ? 0 : row.wait };
}

/** Deletes ended windows, which hits no longer read; returns how many. */
export async function pruneRateLimits(db: Queryable): Promise<number> {
  return deleteCounting(db, `DELETE FROM rate_limits WHERE expires_at <= statement_timestamp()`);
}

export const rateLimitJobs: JobDefinitions = {
  'rate-limits.prune': {
    everySeconds: 60 * 60,
    run: async (_, { db }) => {
      await pruneRateLimits(db);
    },
  },
};
