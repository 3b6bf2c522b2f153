import type { AnalyticsAnswer } from '#common/console-api.ts';
import type { Queryable } from '#server/platform/db/database.ts';

const TOP = 10;
const RANGE = `event = '$pageview' AND occurred_at >= $1::date AND occurred_at < $2::date + 1`;

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The console's analytics for the days from `from` to `to` (UTC, both included): page views and
 * unique visitors per day and language, per day over every language, and the most viewed pages and
 * the sites that sent the most visitors. A visitor is their browser's anonymous identifier.
 */
export async function dashboard(
  db: Queryable,
  from: string,
  to: string,
): Promise<Omit<AnalyticsAnswer, 'posthogHost'>> {
  const days = await db.query<{ day: Date; language: string | null; views: number; visitors: number }>(
    `SELECT (occurred_at AT TIME ZONE 'UTC')::date AS day, language,
            count(*)::integer AS views, count(DISTINCT distinct_id)::integer AS visitors
     FROM analytics_events WHERE ${RANGE} GROUP BY 1, 2 ORDER BY 1, 2`,
    [from, to],
  );
  const totals = await db.query<{ day: Date; views: number; visitors: number }>(
    `SELECT (occurred_at AT TIME ZONE 'UTC')::date AS day,
            count(*)::integer AS views, count(DISTINCT distinct_id)::integer AS visitors
     FROM analytics_events WHERE ${RANGE} GROUP BY 1 ORDER BY 1`,
    [from, to],
  );
  const topPages = await db.query<{ path: string; views: number; visitors: number }>(
    `SELECT path, count(*)::integer AS views, count(DISTINCT distinct_id)::integer AS visitors
     FROM analytics_events WHERE ${RANGE} AND path IS NOT NULL
     GROUP BY path ORDER BY views DESC, path LIMIT ${TOP}`,
    [from, to],
  );
  const topReferrers = await db.query<{ host: string; views: number; visitors: number }>(
    `SELECT referrer_host AS host, count(*)::integer AS views, count(DISTINCT distinct_id)::integer AS visitors
     FROM analytics_events WHERE ${RANGE} AND referrer_host IS NOT NULL
     GROUP BY referrer_host ORDER BY views DESC, referrer_host LIMIT ${TOP}`,
    [from, to],
  );
  return {
    from,
    to,
    days: days.map((row) => ({ ...row, day: dayOf(row.day), language: row.language ?? '-' })),
    totals: totals.map((row) => ({ ...row, day: dayOf(row.day) })),
    topPages,
    topReferrers,
  };
}
