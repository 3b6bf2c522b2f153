import type { AnalyticsDimension } from '#common/analytics-api.ts';

/** Rows per breakdown: the page shows them all, with a bar each. */
export const TOP = 50;

/**
 * One row of a span's measures: the headline ('headline', and 'visit-stats' with the bounces as
 * `visitors` and the summed visit length as `extra`), a point of the chart ('series',
 * 'language-series' with the language as `key`), or a breakdown's row (kind the dimension).
 */
export interface Part {
  kind: string;
  bucket: string | null;
  key: string | null;
  visitors: number;
  visits: number;
  views: number;
  extra: number | null;
}

/**
 * Where each breakdown's value is read in `views`: the page view's own path and language, or its
 * visit's value, which the visit takes from its first page view (its last for the exit page).
 */
export const COLUMNS: Record<AnalyticsDimension, string> = {
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

/** The events a span reads: page views and leaves from $1 up to $2. */
export const SPAN_EVENTS = `event IN ('$pageview', '$pageleave') AND occurred_at >= $1::timestamptz AND occurred_at < $2::timestamptz`;

/**
 * The page views of the span with their visits, as CTEs (decision 180): the events of each visitor
 * in time order; one more than 30 minutes after the visitor's previous event, or on another day of
 * the site (decision 253), opens a new visit. A visit's length runs from its first event to its
 * last, page leaves included; a visit of one page view is a bounce. Only events inside the span
 * count, so a visit across its start is cut there. The filters keep visits (entry, referrer,
 * device...) or page views (page, language). `views` carries each page view's `day` (YYYY-MM-DD).
 * The statement's parameters are $1 and $2 (the span), $3 (the site's time zone), then the filters';
 * `shared` reads one share of the visitors from the roll-up's copy of the span (day-rollups.ts),
 * named by two more parameters: the roll-up's run, and the share.
 *
 * Window functions only, never a join: PGlite keeps no statistics (it has no autovacuum), and
 * without them the planner ran a join of events and visits as a nested loop, minutes for 20,000 views.
 */
export function viewsOf(filters: Partial<Record<AnalyticsDimension, string>>, { shared = false } = {}) {
  const firstParam = 4;
  const params: (string | null)[] = [];
  const conditions = Object.entries(filters).map(([name, value]) => {
    params.push(value === '' ? null : value);
    return `${COLUMNS[name as AnalyticsDimension]} IS NOT DISTINCT FROM $${firstParam + params.length - 1}::text`;
  });
  const next = firstParam + params.length;
  const source = shared ? 'analytics_rollup_scratch' : 'analytics_events';
  const share = shared ? ` AND run = $${next}::bigint AND share = $${next + 1}::integer` : '';
  const sql = `
    events AS (
      SELECT *,
             CASE WHEN occurred_at - lag(occurred_at) OVER visitor <= interval '30 minutes'
                       AND day = lag(day) OVER visitor THEN 0 ELSE 1 END AS opens
      FROM (
        SELECT id, event, distinct_id, occurred_at, to_char(occurred_at AT TIME ZONE $3::text, 'YYYY-MM-DD') AS day,
               path, language, browser_language, referrer_host, utm_source, utm_campaign, device, browser, os, country
        FROM ${source}
        WHERE ${SPAN_EVENTS}${share}
      ) AS spanned
      WINDOW visitor AS (PARTITION BY distinct_id ORDER BY occurred_at, id)
    ),
    numbered AS (
      SELECT *, distinct_id || ' ' || sum(opens) OVER (PARTITION BY distinct_id ORDER BY occurred_at, id) AS visit
      FROM events
    ),
    visited AS (
      SELECT event, occurred_at, day, distinct_id, visit, path, language,
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
        SELECT occurred_at, day, distinct_id, visit, path, language, paths[1] AS entry, paths[cardinality(paths)] AS exit,
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
