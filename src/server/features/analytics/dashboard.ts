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
import type { Database, Queryable } from '#server/platform/db/database.ts';
import { EXACT_UP_TO_VIEWS, rolledUpParts } from './day-rollups.ts';
import type { Period, Span } from './periods.ts';
import { COLUMNS, type Part, TOP, viewsOf } from './visits-sql.ts';

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
 * from raw events in one statement, so that the visits are cut once. Used for a single day (its
 * chart is by the hour) and with filters; other spans are read from the day roll-ups.
 */
async function measure(
  db: Queryable,
  span: Span,
  bucket: 'hour' | 'day',
  timeZone: string,
  filters: Partial<Record<AnalyticsDimension, string>>,
  withBreakdowns: boolean,
): Promise<Part[]> {
  const { sql, params } = viewsOf(filters);
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

/**
 * The console's analytics for a period in the site's time zone, compared with the one before. A
 * span of more than one day, without filters and with more than `exactUpTo` page views, is read
 * from the day roll-ups (decision 253).
 */
export async function dashboard(
  db: Database,
  period: Period,
  timeZone: string,
  filters: Partial<Record<AnalyticsDimension, string>>,
  exactUpTo = EXACT_UP_TO_VIEWS,
): Promise<Omit<AnalyticsAnswer, 'posthogHost'>> {
  const rolledUp = period.bucket === 'day' && Object.keys(filters).length === 0;
  const measured = async (span: Span, withBreakdowns: boolean) => {
    const rolled = rolledUp ? await rolledUpParts(db, span, timeZone, withBreakdowns, exactUpTo) : null;
    return {
      estimated: rolled !== null,
      parts: rolled ?? (await measure(db, span, period.bucket, timeZone, filters, withBreakdowns)),
    };
  };
  const { estimated, parts: current } = await measured(period, true);
  const { parts: previous } = await measured(period.previous, false);
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
    estimated,
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
