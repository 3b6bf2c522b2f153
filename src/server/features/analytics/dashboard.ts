import {
  ANALYTICS_DIMENSIONS,
  type AnalyticsAnswer,
  type AnalyticsDimension,
  type AnalyticsHeadline,
  type AnalyticsPoint,
  type AnalyticsRow,
} from '#common/analytics-api.ts';
import { chatConversationsPer } from '#server/features/chat/index.ts';
import { contactMessagesPer } from '#server/features/contact/index.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import type { Period, Span } from './periods.ts';

/** Rows per breakdown: the page shows them all, with a bar each. */
const TOP = 50;

/**
 * Where each breakdown's value is read in `views`: the page view's own path and language, or its
 * visit's value, which the visit takes from its first page view (its last for the exit page).
 */
const COLUMNS: Record<AnalyticsDimension, string> = {
  page: 'path',
  language: 'language',
  entry: 'entry',
  exit: 'exit',
  browserLanguage: 'browser_language',
  referrer: 'referrer_host',
  source: 'utm_source',
  campaign: 'utm_campaign',
  device: 'device',
  browser: 'browser',
  system: 'os',
  country: 'country',
};

/** A column's values at the visit's page views, in time order, on every row of the visit. */
const ofVisit = (column: string) => `array_agg(${column}) FILTER (WHERE event = '$pageview') OVER visit`;

/**
 * The page views of the span with their visits, as CTEs (decision 180): the events of each visitor
 * in time order; one more than 30 minutes after the visitor's previous event opens a new visit. A
 * visit's length runs from its first event to its last, page leaves included; a visit of one page
 * view is a bounce. Only events inside the span count, so a visit across its start is cut there.
 * The filters keep visits (entry, referrer, device...) or page views (page, language).
 *
 * Window functions only, never a join: PGlite keeps no statistics (it has no autovacuum), and
 * without them the planner ran a join of events and visits as a nested loop, minutes for 20,000 views.
 */
function viewsOf(filters: Partial<Record<AnalyticsDimension, string>>, firstParam: number) {
  const params: (string | null)[] = [];
  const conditions = Object.entries(filters).map(([name, value]) => {
    params.push(value === '' ? null : value);
    return `${COLUMNS[name as AnalyticsDimension]} IS NOT DISTINCT FROM $${firstParam + params.length - 1}::text`;
  });
  const sql = `
    events AS (
      SELECT id, event, distinct_id, occurred_at, path, language, browser_language, referrer_host, utm_source,
             utm_campaign, device, browser, os, country,
             CASE WHEN occurred_at - lag(occurred_at) OVER (PARTITION BY distinct_id ORDER BY occurred_at, id)
                       <= interval '30 minutes' THEN 0 ELSE 1 END AS opens
      FROM analytics_events
      WHERE event IN ('$pageview', '$pageleave') AND occurred_at >= $1::timestamptz AND occurred_at < $2::timestamptz
    ),
    numbered AS (
      SELECT *, distinct_id || ' ' || sum(opens) OVER (PARTITION BY distinct_id ORDER BY occurred_at, id) AS visit
      FROM events
    ),
    visited AS (
      SELECT event, occurred_at, distinct_id, visit, path, language,
             count(*) FILTER (WHERE event = '$pageview') OVER visit AS visit_views,
             extract(epoch FROM max(occurred_at) OVER visit - min(occurred_at) OVER visit)::float8 AS visit_seconds,
             ${ofVisit('path')} AS paths,
             (${ofVisit('browser_language')})[1] AS browser_language, (${ofVisit('referrer_host')})[1] AS referrer_host,
             (${ofVisit('utm_source')})[1] AS utm_source, (${ofVisit('utm_campaign')})[1] AS utm_campaign,
             (${ofVisit('device')})[1] AS device, (${ofVisit('browser')})[1] AS browser, (${ofVisit('os')})[1] AS os,
             (${ofVisit('country')})[1] AS country
      FROM numbered
      WINDOW visit AS (PARTITION BY visit ORDER BY occurred_at, id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
    ),
    views AS (
      SELECT * FROM (
        SELECT occurred_at, distinct_id, visit, path, language, paths[1] AS entry, paths[cardinality(paths)] AS exit,
               browser_language, referrer_host, utm_source, utm_campaign, device, browser, os, country, visit_views,
               visit_seconds
        FROM visited WHERE event = '$pageview'
      ) AS page_views
      WHERE true${conditions.map((condition) => ` AND ${condition}`).join('')}
    ),
    matched AS (
      SELECT visit, min(visit_views) AS views, min(visit_seconds) AS seconds FROM views GROUP BY visit
    )`;
  return { sql, params };
}

interface Part {
  kind: string;
  bucket: string | null;
  key: string | null;
  visitors: number;
  visits: number;
  views: number;
  extra: number | null;
}

const COUNTS = 'count(DISTINCT distinct_id)::integer, count(DISTINCT visit)::integer, count(*)::integer';
const COUNTS_AS =
  'count(DISTINCT distinct_id)::integer AS visitors, count(DISTINCT visit)::integer AS visits, count(*)::integer AS views';

function headlineOf(parts: Part[]): AnalyticsHeadline {
  const totals = parts.find((part) => part.kind === 'headline');
  const stats = parts.find((part) => part.kind === 'visit-stats');
  const visits = totals?.visits ?? 0;
  return {
    visitors: totals?.visitors ?? 0,
    visits,
    views: totals?.views ?? 0,
    viewsPerVisit: visits ? (totals?.views ?? 0) / visits : null,
    bounceRate: visits ? (stats?.visitors ?? 0) / visits : null,
    visitSeconds: visits ? (stats?.extra ?? 0) / visits : null,
  };
}

const pointsOf = (parts: Part[]): AnalyticsPoint[] =>
  parts
    .filter((part) => part.kind === 'series')
    .map(({ bucket, visitors, visits, views }) => ({ bucket: bucket ?? '', visitors, visits, views }));

/**
 * The headline numbers and the chart's points of a span (and the breakdowns when `withBreakdowns`),
 * in one statement so that the visits are cut once. Raw events are read here; daily rollups can
 * take their place for whole days later without changing the answer's shape.
 */
async function measure(
  db: Queryable,
  span: Span,
  bucket: 'hour' | 'day',
  timeZone: string,
  filters: Partial<Record<AnalyticsDimension, string>>,
  withBreakdowns: boolean,
): Promise<Part[]> {
  const { sql, params } = viewsOf(filters, 4);
  const format = bucket === 'hour' ? `'YYYY-MM-DD"T"HH24'` : `'YYYY-MM-DD'`;
  const at = `to_char(occurred_at AT TIME ZONE $3::text, ${format})`;
  const parts = [
    `SELECT 'headline', NULL, NULL, ${COUNTS}, NULL::float8 FROM views`,
    `SELECT 'visit-stats', NULL, NULL, count(*) FILTER (WHERE views = 1)::integer, count(*)::integer, 0, sum(seconds)
     FROM matched`,
    `SELECT 'series', ${at}, NULL, ${COUNTS}, NULL FROM views GROUP BY 2`,
  ];
  if (withBreakdowns) {
    parts.push(`SELECT 'language-series', ${at}, language, ${COUNTS}, NULL FROM views GROUP BY 2, 3`);
    for (const name of ANALYTICS_DIMENSIONS) {
      const column = COLUMNS[name];
      parts.push(
        `SELECT kind, NULL, key, visitors, visits, views, NULL FROM (
           SELECT '${name}' AS kind, ${column} AS key, ${COUNTS_AS},
                  row_number() OVER (ORDER BY count(DISTINCT distinct_id) DESC, count(*) DESC, ${column}) AS rank
           FROM views GROUP BY ${column}) AS ranked
         WHERE rank <= ${TOP}`,
      );
    }
  }
  return db.query<Part>(
    `WITH ${sql}
     SELECT kind, bucket, key, visitors, visits, views, extra FROM (
       ${parts.join('\n       UNION ALL ')}
     ) AS parts (kind, bucket, key, visitors, visits, views, extra)`,
    [span.start.toISOString(), span.end.toISOString(), timeZone, ...params],
  );
}

/** Page views served without consent: a plain count per day, page and language (decision 180). */
async function unconsented(db: Queryable, span: Span): Promise<AnalyticsAnswer['unconsented']> {
  const pages = await db.query<{ path: string; language: string; views: number }>(
    `SELECT path, language, sum(views)::integer AS views FROM analytics_unconsented_views
     WHERE day BETWEEN $1::date AND $2::date GROUP BY path, language ORDER BY views DESC, path, language LIMIT ${TOP}`,
    [span.from, span.to],
  );
  const [total] = await db.query<{ views: number }>(
    `SELECT coalesce(sum(views), 0)::integer AS views FROM analytics_unconsented_views WHERE day BETWEEN $1::date AND $2::date`,
    [span.from, span.to],
  );
  return { views: total?.views ?? 0, pages };
}

/** Contact messages and chat conversations per bucket of the period, oldest first. */
async function contactOf(db: Queryable, period: Period, timeZone: string): Promise<AnalyticsAnswer['contact']> {
  const hourly = period.bucket === 'hour';
  const messages = await contactMessagesPer(db, period, timeZone, hourly);
  const conversations = await chatConversationsPer(db, period, timeZone, hourly);
  const buckets = [...new Set([...messages, ...conversations].map((row) => row.bucket))].sort();
  return buckets.map((bucket) => {
    const chat = conversations.find((row) => row.bucket === bucket);
    return {
      bucket,
      messages: messages.find((row) => row.bucket === bucket)?.count ?? 0,
      conversations: chat?.count ?? 0,
      answered: chat?.answered ?? 0,
      medianFirstReplySeconds: chat?.medianFirstReplySeconds ?? null,
    };
  });
}

/** The console's analytics for a period in the site's time zone, compared with the one before. */
export async function dashboard(
  db: Queryable,
  period: Period,
  timeZone: string,
  filters: Partial<Record<AnalyticsDimension, string>>,
): Promise<Omit<AnalyticsAnswer, 'posthogHost'>> {
  const current = await measure(db, period, period.bucket, timeZone, filters, true);
  const previous = await measure(db, period.previous, period.bucket, timeZone, filters, false);
  const breakdowns = Object.fromEntries(ANALYTICS_DIMENSIONS.map((name) => [name, [] as AnalyticsRow[]])) as Record<
    AnalyticsDimension,
    AnalyticsRow[]
  >;
  for (const part of current) {
    const rows = breakdowns[part.kind as AnalyticsDimension];
    if (rows) rows.push({ key: part.key ?? '', visitors: part.visitors, visits: part.visits, views: part.views });
  }
  return {
    from: period.from,
    to: period.to,
    previousFrom: period.previous.from,
    previousTo: period.previous.to,
    timeZone,
    bucket: period.bucket,
    filters,
    headline: headlineOf(current),
    previousHeadline: headlineOf(previous),
    series: pointsOf(current).sort((a, b) => a.bucket.localeCompare(b.bucket)),
    previousSeries: pointsOf(previous).sort((a, b) => a.bucket.localeCompare(b.bucket)),
    languages: current
      .filter((part) => part.kind === 'language-series')
      .map(({ bucket, key, visitors, views }) => ({ bucket: bucket ?? '', language: key ?? '', visitors, views }))
      .sort((a, b) => a.bucket.localeCompare(b.bucket) || a.language.localeCompare(b.language)),
    breakdowns,
    contact: await contactOf(db, period, timeZone),
    unconsented: await unconsented(db, period),
  };
}
