import { ANALYTICS_DIMENSIONS } from '#common/analytics-api.ts';
import { instantOf, wallClock } from '#server/features/chat/index.ts';
import type { Database, Queryable } from '#server/platform/db/database.ts';
import type { Span } from './periods.ts';
import { estimateVisitors, mergeInto, oneVisitorSketchSql, type Registers, registersOf } from './visitor-sketch.ts';
import { COLUMNS, type Part, TOP, viewsOf } from './visits-sql.ts';

const DAY = 24 * 60 * 60 * 1000;
/** Days one statement rolls up at most, so that a first roll-up of a long history runs in steps. */
const DAYS_PER_STATEMENT = 7;

/** One day's numbers for one breakdown value (dimension '' for the day's totals, with a null value). */
interface DayRow {
  day: string;
  dimension: string;
  value: string | null;
  visitors: number;
  visits: number;
  views: number;
  bounces: number;
  seconds: number;
}

/**
 * The rows of analytics_day_rollups for the days between $1 and $2 (the site's time zone is $3),
 * from raw events: per day and breakdown value, exact visitors, visits and page views, and the
 * visitors' sketch. Visitors are counted per value, then their visits, then their views, so that
 * every count is a hash aggregate and never a sort.
 */
function dayRowsSql(): string {
  const names = ['', ...ANALYTICS_DIMENSIONS].map((name) => `'${name}'`).join(', ');
  const values = ['NULL::text', ...ANALYTICS_DIMENSIONS.map((name) => COLUMNS[name])].join(', ');
  return `WITH ${viewsOf({}).sql},
    keyed AS (
      SELECT day, distinct_id, visit, unnest(ARRAY[${names}]) AS dimension, unnest(ARRAY[${values}]) AS value FROM views
    ),
    per_visit AS (
      SELECT day, dimension, value, distinct_id, count(*) AS views FROM keyed GROUP BY day, dimension, value, distinct_id, visit
    ),
    per_visitor AS (
      SELECT day, dimension, value, distinct_id, count(*) AS visits, sum(views) AS views
      FROM per_visit GROUP BY day, dimension, value, distinct_id
    ),
    visit_stats AS (
      SELECT day, count(*) FILTER (WHERE views = 1)::integer AS bounces, sum(seconds)::float8 AS seconds
      FROM matched GROUP BY day
    )
    SELECT v.day, v.dimension, v.value, v.visitors, v.visits, v.views,
           CASE WHEN v.dimension = '' THEN s.bounces ELSE 0 END AS bounces,
           CASE WHEN v.dimension = '' THEN s.seconds ELSE 0 END AS seconds, v.sketch
    FROM (
      SELECT day, dimension, value, count(*)::integer AS visitors, sum(visits)::integer AS visits,
             sum(views)::integer AS views, bit_or(${oneVisitorSketchSql('hashtextextended(distinct_id, 0)')}) AS sketch
      FROM per_visitor GROUP BY day, dimension, value
    ) AS v JOIN visit_stats AS s ON s.day = v.day`;
}

/** The site's calendar day of a wall-clock instant, and the instant a calendar day starts. */
const dayOfWall = (wall: number) => new Date(wall).toISOString().slice(0, 10);
const startOf = (day: string, timeZone: string) => new Date(instantOf(Date.parse(`${day}T00:00:00Z`), timeZone));
const nextDay = (day: string) => dayOfWall(Date.parse(`${day}T00:00:00Z`) + DAY);

/**
 * Rolls up the site's days that have ended and are not rolled up yet, oldest first and at most
 * `maxDays`, and the rolled days that events have arrived for since (a late batch). Days rolled in
 * another time zone are dropped first: a change of the site's time zone rolls everything again.
 * Returns the days rolled.
 */
export async function rollUpDays(db: Database, timeZone: string, now: Date, maxDays = 62): Promise<string[]> {
  await db.query(
    'DELETE FROM analytics_day_rollups WHERE day IN (SELECT day FROM analytics_rolled_days WHERE time_zone <> $1)',
    [timeZone],
  );
  await db.query('DELETE FROM analytics_rolled_days WHERE time_zone <> $1', [timeZone]);
  const today = dayOfWall(wallClock(now.getTime(), timeZone));
  const [state] = await db.query<{ newest: string | null; seen: string | null; first: string | null }>(
    `SELECT to_char(max(day), 'YYYY-MM-DD') AS newest, max(last_event_id)::text AS seen,
            (SELECT to_char(min(occurred_at) AT TIME ZONE $1, 'YYYY-MM-DD') FROM analytics_events) AS first
     FROM analytics_rolled_days`,
    [timeZone],
  );
  const late = state?.seen
    ? (
        await db.query<{ day: string }>(
          `SELECT DISTINCT to_char(occurred_at AT TIME ZONE $1, 'YYYY-MM-DD') AS day FROM analytics_events WHERE id > $2::bigint`,
          [timeZone, state.seen],
        )
      )
        .map((row) => row.day)
        .filter((day) => day <= (state.newest as string))
    : [];
  const due: string[] = [];
  for (let day = state?.newest ? nextDay(state.newest) : state?.first; day && day < today && due.length < maxDays; ) {
    due.push(day);
    day = nextDay(day);
  }
  const days = [...new Set([...late, ...due])].sort();
  for (let i = 0; i < days.length; ) {
    const first = days[i] as string;
    const run = [first];
    while (run.length < DAYS_PER_STATEMENT && days[i + run.length] === nextDay(run[run.length - 1] as string)) {
      run.push(days[i + run.length] as string);
    }
    await rollUp(db, run, timeZone);
    i += run.length;
  }
  return days;
}

/** Rolls up consecutive days in one transaction: their rows are replaced, and they are noted as rolled. */
async function rollUp(db: Database, days: string[], timeZone: string): Promise<void> {
  const first = days[0] as string;
  const last = days[days.length - 1] as string;
  await db.transaction(async (tx) => {
    const [{ seen } = { seen: '0' }] = await tx.query<{ seen: string }>(
      'SELECT coalesce(max(id), 0)::text AS seen FROM analytics_events',
    );
    await tx.query('DELETE FROM analytics_day_rollups WHERE day BETWEEN $1::date AND $2::date', [first, last]);
    await tx.query(
      `INSERT INTO analytics_day_rollups (day, dimension, value, visitors, visits, views, bounces, seconds, sketch)
       SELECT day::date, dimension, value, visitors, visits, views, bounces, seconds, sketch FROM (${dayRowsSql()}) AS rows`,
      [startOf(first, timeZone).toISOString(), startOf(nextDay(last), timeZone).toISOString(), timeZone],
    );
    await tx.query(
      `INSERT INTO analytics_rolled_days (day, time_zone, last_event_id)
       SELECT day::date, $2, $3::bigint FROM unnest($1::text[]) AS day
       ON CONFLICT (day) DO UPDATE SET time_zone = $2, rolled_at = statement_timestamp(), last_event_id = $3::bigint`,
      [days, timeZone, seen],
    );
  });
}

/** Deletes the roll-ups of days older than `days`, as the raw events are. */
export async function pruneRollups(db: Queryable, days: number): Promise<void> {
  await db.query(
    `DELETE FROM analytics_day_rollups WHERE day < (statement_timestamp() - $1::integer * interval '1 day')::date`,
    [days],
  );
  await db.query(
    `DELETE FROM analytics_rolled_days WHERE day < (statement_timestamp() - $1::integer * interval '1 day')::date`,
    [days],
  );
}

/** A breakdown value's numbers over several days, merged. */
interface Merged {
  dimension: string;
  value: string | null;
  registers: Registers;
  /** The largest daily count of visitors and their sum: the estimate stays between them. */
  most: number;
  sum: number;
  visits: number;
  views: number;
  bounces: number;
  seconds: number;
}

/**
 * The days of a span that are rolled up and whole, and the others as runs of consecutive time to
 * work out from raw events. Days before the first event or after the last are left out, so that a
 * span of centuries costs no more than the events' own days.
 */
async function daysOf(db: Queryable, span: Span, timeZone: string) {
  const [bounds] = await db.query<{ first: string | null; last: string | null }>(
    `SELECT to_char(min(occurred_at) AT TIME ZONE $1, 'YYYY-MM-DD') AS first,
            to_char(max(occurred_at) AT TIME ZONE $1, 'YYYY-MM-DD') AS last FROM analytics_events`,
    [timeZone],
  );
  const stored: string[] = [];
  const live: { start: Date; end: Date }[] = [];
  if (!bounds?.first || !bounds.last) return { stored, live };
  const from = bounds.first > span.from ? bounds.first : span.from;
  const to = bounds.last < span.to ? bounds.last : span.to;
  if (from > to) return { stored, live };
  const rolled = new Set(
    (
      await db.query<{ day: string }>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM analytics_rolled_days
         WHERE day BETWEEN $1::date AND $2::date AND time_zone = $3`,
        [from, to, timeZone],
      )
    ).map((row) => row.day),
  );
  for (let day = from; day <= to; day = nextDay(day)) {
    const dayStart = startOf(day, timeZone).getTime();
    const dayEnd = startOf(nextDay(day), timeZone).getTime();
    const start = Math.max(dayStart, span.start.getTime());
    const end = Math.min(dayEnd, span.end.getTime());
    const previous = live.at(-1);
    if (start >= end) continue;
    if (rolled.has(day) && start === dayStart && end === dayEnd) stored.push(day);
    else if (previous?.end.getTime() === start) previous.end = new Date(end);
    else live.push({ start: new Date(start), end: new Date(end) });
  }
  return { stored, live };
}

/** Up to this many page views a span is measured exactly from raw events; above, from the roll-ups. */
export const EXACT_UP_TO_VIEWS = 20_000;

/**
 * The parts of a span's answer (as `measure` in dashboard.ts gives them) from the day roll-ups
 * (decision 253), or null when the span has at most `exactUpTo` page views: raw events then answer
 * it exactly and fast enough. The days of the span that are rolled up and whole are read from the
 * roll-ups; every other day (today, the cut last day of a previous period, a day not rolled up
 * yet) is worked out from raw events with the statement the job uses. Unique visitors over several
 * days are estimated from the merged sketches; every other number is exact.
 */
export async function rolledUpParts(
  db: Queryable,
  span: Span,
  timeZone: string,
  withBreakdowns: boolean,
  exactUpTo = EXACT_UP_TO_VIEWS,
): Promise<Part[] | null> {
  const { stored, live } = await daysOf(db, span, timeZone);
  if (exactUpTo > 0) {
    const [counted] = await db.query<{ views: number }>(
      `SELECT (SELECT coalesce(sum(views), 0) FROM analytics_day_rollups WHERE day = ANY($1::date[]) AND dimension = '')
            + (SELECT count(*) FROM analytics_events, unnest($2::timestamptz[], $3::timestamptz[]) AS run (start, stop)
               WHERE event = '$pageview' AND occurred_at >= run.start AND occurred_at < run.stop) AS views`,
      [stored, live.map((run) => run.start.toISOString()), live.map((run) => run.end.toISOString())],
    );
    if (Number(counted?.views ?? 0) <= exactUpTo) return null;
  }
  const daily: DayRow[] = [];
  const merged = new Map<string, Merged>();
  /** Adds a value's numbers of one or more days; `most` and `sum` are its largest and summed daily visitors. */
  const add = (row: DayRow & { sketch: string }, most: number, sum: number) => {
    const key = `${row.dimension}\u0000${row.value ?? '\u0001'}`;
    const registers = registersOf(row.sketch);
    const into = merged.get(key);
    if (!into) {
      merged.set(key, { ...row, registers, most, sum });
      return;
    }
    mergeInto(into.registers, registers);
    into.most = Math.max(into.most, most);
    into.sum += sum;
    into.visits += row.visits;
    into.views += row.views;
    into.bounces += row.bounces;
    into.seconds += row.seconds;
  };
  const wanted = withBreakdowns ? '' : `AND dimension = ''`;
  const chartDimensions = withBreakdowns ? `('', 'language')` : `('')`;
  if (stored.length > 0) {
    daily.push(
      ...(await db.query<DayRow>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, dimension, value, visitors, visits, views, bounces, seconds
         FROM analytics_day_rollups WHERE day = ANY($1::date[]) AND dimension IN ${chartDimensions}`,
        [stored],
      )),
    );
    const rows = await db.query<DayRow & { sketch: string; most: number }>(
      `SELECT dimension, value, max(visitors)::integer AS most, sum(visitors)::integer AS visitors,
              sum(visits)::integer AS visits, sum(views)::integer AS views, sum(bounces)::integer AS bounces,
              sum(seconds)::float8 AS seconds, bit_or(sketch)::text AS sketch
       FROM analytics_day_rollups WHERE day = ANY($1::date[]) ${wanted} GROUP BY dimension, value`,
      [stored],
    );
    for (const row of rows) add(row, row.most, row.visitors);
  }
  for (const { start, end } of live) {
    const rows = await db.query<DayRow & { sketch: string }>(
      `SELECT day, dimension, value, visitors, visits, views, bounces, seconds, sketch::text AS sketch
       FROM (${dayRowsSql()}) AS rows WHERE true ${wanted}`,
      [start.toISOString(), end.toISOString(), timeZone],
    );
    for (const row of rows) {
      if (row.dimension === '' || (withBreakdowns && row.dimension === 'language')) daily.push(row);
      add(row, row.visitors, row.visitors);
    }
  }
  return partsOf(daily, [...merged.values()]);
}

/** The parts `measure` gives, from daily rows (totals and languages) and values merged over the span. */
function partsOf(daily: DayRow[], merged: Merged[]): Part[] {
  const visitorsOf = (entry: Merged) => estimateVisitors(entry.registers, entry.most, entry.sum);
  const parts: Part[] = [];
  const totals = merged.find((entry) => entry.dimension === '');
  if (totals) {
    const { visits, views, bounces, seconds } = totals;
    parts.push({ kind: 'headline', bucket: null, key: null, visitors: visitorsOf(totals), visits, views, extra: null });
    parts.push({ kind: 'visit-stats', bucket: null, key: null, visitors: bounces, visits, views: 0, extra: seconds });
  }
  for (const row of daily) {
    const kind = row.dimension === '' ? 'series' : 'language-series';
    parts.push({
      kind,
      bucket: row.day,
      key: row.value,
      visitors: row.visitors,
      visits: row.visits,
      views: row.views,
      extra: null,
    });
  }
  for (const name of ANALYTICS_DIMENSIONS) {
    const rows = merged
      .filter((entry) => entry.dimension === name)
      .map((entry) => ({ entry, visitors: visitorsOf(entry) }))
      .sort(
        (a, b) =>
          b.visitors - a.visitors ||
          b.entry.views - a.entry.views ||
          (a.entry.value === null ? 1 : b.entry.value === null ? -1 : a.entry.value < b.entry.value ? -1 : 1),
      )
      .slice(0, TOP);
    for (const { entry, visitors } of rows) {
      parts.push({
        kind: name,
        bucket: null,
        key: entry.value,
        visitors,
        visits: entry.visits,
        views: entry.views,
        extra: null,
      });
    }
  }
  return parts;
}
