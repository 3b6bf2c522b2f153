import { REALTIME_MINUTES, type RealtimeAnswer } from '#common/analytics-api.ts';
import type { Queryable } from '#server/platform/db/database.ts';

const TOP_PAGES = 10;

/**
 * Who is on the site now: visitors with any event in the last few minutes, each on the page of
 * their last page view. Events dated ahead of the server's clock (a visitor's wrong clock) count
 * as now; what the store never receives (visitors who did not allow analytics) is not here.
 */
export async function realtime(db: Queryable, now = new Date()): Promise<RealtimeAnswer> {
  const since = new Date(now.getTime() - REALTIME_MINUTES * 60_000);
  const [counted] = await db.query<{ visitors: number }>(
    `SELECT count(DISTINCT distinct_id)::int AS visitors FROM analytics_events WHERE occurred_at > $1`,
    [since],
  );
  const pages = await db.query<{ path: string; visitors: number }>(
    `SELECT path, count(*)::int AS visitors FROM (
       SELECT DISTINCT ON (distinct_id) distinct_id, path FROM analytics_events
       WHERE occurred_at > $1 AND event = '$pageview' AND path IS NOT NULL
       ORDER BY distinct_id, occurred_at DESC
     ) AS latest
     GROUP BY path ORDER BY visitors DESC, path LIMIT $2`,
    [since, TOP_PAGES],
  );
  return { visitors: counted?.visitors ?? 0, pages, at: now.toISOString() };
}
