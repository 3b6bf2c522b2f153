import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { describeOnDatabases } from '#tests/support/databases.ts';
import { hitRateLimit, pruneRateLimits } from './rate-limit-counter.ts';

/** Long enough for a 1-second window to end, measured by the database's clock. */
const PAST_ONE_SECOND = 1_200;

describeOnDatabases('rate limits', (database) => {
  // The database opens before the tests run; this reaches it when they do.
  const db = { query: <T>(sql: string, params?: unknown[]) => database().query<T>(sql, params) };

  it('allows `limit` hits in a window and refuses the next until it ends', async () => {
    for (let hit = 0; hit < 3; hit++) {
      expect(await hitRateLimit(db, 'within', 3, 60)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    }
    const refused = await hitRateLimit(db, 'within', 3, 60);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('keeps its counts out of the write-ahead log, so a count waits for no flush to disk', async () => {
    expect(await db.query("SELECT relpersistence FROM pg_class WHERE oid = 'rate_limits'::regclass")).toEqual([
      { relpersistence: 'u' },
    ]);
  });

  it('keeps keys apart', async () => {
    expect((await hitRateLimit(db, 'apart:a', 1, 60)).allowed).toBe(true);
    expect((await hitRateLimit(db, 'apart:b', 1, 60)).allowed).toBe(true);
    expect((await hitRateLimit(db, 'apart:a', 1, 60)).allowed).toBe(false);
  });

  it('loses no count when hits arrive at once', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => hitRateLimit(db, 'burst', 10, 60)));
    expect(results.filter((result) => result.allowed)).toHaveLength(10);

    await Promise.all(Array.from({ length: 50 }, () => hitRateLimit(db, 'counted', 100, 60)));
    expect(await db.query('SELECT hits FROM rate_limits WHERE key = $1', ['counted'])).toEqual([{ hits: 50 }]);
  });

  it('starts a new window once the last has ended', async () => {
    expect((await hitRateLimit(db, 'expiry', 1, 1)).allowed).toBe(true);
    expect(await hitRateLimit(db, 'expiry', 1, 1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await sleep(PAST_ONE_SECOND);
    expect((await hitRateLimit(db, 'expiry', 1, 1)).allowed).toBe(true);
    expect((await hitRateLimit(db, 'expiry', 1, 1)).allowed).toBe(false);
  });

  it('prunes ended windows only', async () => {
    await db.query('DELETE FROM rate_limits');
    await hitRateLimit(db, 'prune:ended', 5, 1);
    await hitRateLimit(db, 'prune:open', 5, 60);
    await sleep(PAST_ONE_SECOND);
    expect(await pruneRateLimits(db)).toBe(1);
    expect(await db.query('SELECT key FROM rate_limits')).toEqual([{ key: 'prune:open' }]);
  });

  it('rejects a limit or window that makes no sense', async () => {
    await expect(hitRateLimit(db, 'bad', 0, 60)).rejects.toThrow(RangeError);
    await expect(hitRateLimit(db, 'bad', 1.5, 60)).rejects.toThrow(RangeError);
    await expect(hitRateLimit(db, 'bad', 1, 0)).rejects.toThrow(RangeError);
  });
});
