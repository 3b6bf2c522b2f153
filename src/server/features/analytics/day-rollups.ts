import { randomInt } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { ANALYTICS_DIMENSIONS } from '#common/analytics-api.ts';
import { instantOf, wallClock } from '#server/features/chat/index.ts';
import type { Database, Queryable } from '#server/platform/db/database.ts';
import { dayOf, type Span } from './periods.ts';
import {
  estimateVisitors,
  mergeInto,
  type Registers,
  registersFromBits,
  registersOf,
  sketchBitSql,
  sketchOf,
} from './visitor-sketch.ts';
import { COLUMNS, type Part, SPAN_EVENTS, TOP, viewsOf } from './visits-sql.ts';

const DAY = 24 * 60 * 60 * 1000;

/** One day's numbers for one breakdown value (dimension '' for the day's totals, with a null value). */
interface DayRow {
  day: string;
  /** Only on totals: the visits that began in this hour of the day (0 to 23), so that a day can be cut. */
  hour: number | null;
  dimension: string;
  value: string | null;
  visitors: number;
  visits: number;
  views: number;
  bounces: number;
  seconds: number;
}

interface SketchedRow extends DayRow {
  registers: Registers;
}

const VISIT_DIMENSIONS = ANALYTICS_DIMENSIONS.filter((name) => name !== 'page' && name !== 'language');

/**
 * The day roll-ups' rows for the days between $1 and $2 (the site's time zone is $3), from raw
 * events: per day and breakdown value, exact visitors, visits and page views, and the bits of the
 * visitors' sketch; per day and hour, the totals of the visits that began in it. A visit's values
 * are read once per visit and a page's once per visit that saw it, so that the aggregates stay
 * small; every one is a hash aggregate.
 */
function dayRowsSql(shared: boolean): string {
  const visitNames = ['', ...VISIT_DIMENSIONS].map((name) => `'${name}'`).join(', ');
  const visitValues = ['NULL::text', ...VISIT_DIMENSIONS.map((name) => `min(${COLUMNS[name]})`)].join(', ');
  return `WITH ${viewsOf({}, { shared }).sql},
    sketched AS (SELECT *, ${sketchBitSql('hashtextextended(distinct_id, 0)')} AS bit FROM views),
    visits AS (
      SELECT min(day) AS day, min(distinct_id) AS distinct_id, min(bit) AS bit, count(*)::integer AS views,
             min(visit_seconds) AS seconds, extract(hour FROM min(occurred_at) AT TIME ZONE $3::text)::integer AS hour,
             unnest(ARRAY[${visitNames}]) AS dimension, unnest(ARRAY[${visitValues}]) AS value
      FROM sketched GROUP BY visit
    ),
    keyed AS (
      SELECT day, dimension, value, distinct_id, bit, 1 AS visits, views FROM visits
      UNION ALL
      SELECT day, dimension, value, min(distinct_id), min(bit), 1, count(*)
      FROM (SELECT day, visit, distinct_id, bit, unnest(ARRAY['page', 'language']) AS dimension,
                   unnest(ARRAY[path, language]) AS value FROM sketched) AS viewed
      GROUP BY day, dimension, value, visit
    ),
    per_visitor AS (
      SELECT day, dimension, value, min(bit) AS bit, sum(visits) AS visits, sum(views) AS views
      FROM keyed GROUP BY day, dimension, value, distinct_id
    )
    SELECT day, NULL::integer AS hour, dimension, value, count(*)::integer AS visitors, sum(visits)::integer AS visits,
           sum(views)::integer AS views, 0 AS bounces, 0::float8 AS seconds, array_agg(bit) AS bits
    FROM per_visitor GROUP BY day, dimension, value
    UNION ALL
    SELECT day, hour, '', NULL, count(DISTINCT distinct_id)::integer, count(*)::integer, sum(views)::integer,
           count(*) FILTER (WHERE views = 1)::integer, sum(seconds)::float8, array_agg(bit)
    FROM visits WHERE dimension = '' GROUP BY day, hour`;
}

/**
 * Events one roll-up statement reads at most, by database (decisions 262 and 266). PGlite runs a
 * statement on the server's thread: a share of 100 events holds it for some 4 ms (half of it the
 * statement's own cost, whatever its size), where a busy day in one statement held it for about a
 * second (40,000 events). PostgreSQL runs it in a process of its own, where fewer, larger shares
 * finish sooner, each well within the statement time limit.
 */
const EVENTS_PER_STATEMENT: Record<Database['kind'], number> = { pglite: 100, postgres: 25_000 };

/** One statement with planner settings of its own (`SET LOCAL`: they end with its transaction). */
async function querySetting<T>(db: Database, settings: string[], sql: string, params: unknown[]): Promise<T[]> {
  return db.transaction(async (tx) => {
    for (const setting of settings) await tx.query(`SET LOCAL ${setting}`);
    return tx.query<T>(sql, params);
  });
}

/**
 * A span's numbers from one statement, or from one share of its visitors (`shared`: run, share).
 * Sorts and aggregates get the memory they need (a day of 25,000 page views spilled to disk with
 * PostgreSQL's default), and no JIT compilation, which cost more than it saved.
 */
const rowsOf = (db: Database, span: string[], timeZone: string, shared?: [number, number]) =>
  querySetting<DayRow & { bits: number[] }>(db, [`work_mem = '64MB'`, 'jit = off'], dayRowsSql(shared !== undefined), [
    ...span,
    timeZone,
    ...(shared ?? []),
  ]);

/**
 * Copies the span's page views and leaves into the roll-up's scratch table, each with its share of
 * the visitors (every event of a visitor in the same share, so a share holds whole visits), a chunk
 * of `eventsPerStatement` at a time in the order of their time. Returns the run that names the copy.
 */
async function copyIntoShares(
  db: Database,
  span: string[],
  shares: number,
  eventsPerStatement: number,
): Promise<number> {
  // Left by a server that stopped during a roll-up; a run's own rows go when it ends.
  await db.query(`DELETE FROM analytics_rollup_scratch WHERE copied_at < statement_timestamp() - interval '1 hour'`);
  const run = randomInt(2 ** 47);
  let after = ['-infinity', '0'];
  for (let copied = eventsPerStatement; copied === eventsPerStatement; ) {
    await setImmediate();
    // In the order of the events' time index, stopped at the chunk's end. PGlite keeps no statistics
    // (decision 180), and without them the planner read every event after the chunk's start, then sorted.
    const [last] = await querySetting<{ occurredAt: string; id: string; copied: number }>(
      db,
      ['enable_bitmapscan = off', 'enable_seqscan = off'],
      `WITH copied AS (
         INSERT INTO analytics_rollup_scratch (run, share, id, event, distinct_id, occurred_at, path, language,
           browser_language, referrer_host, utm_source, utm_campaign, device, browser, os, country)
         SELECT $3::bigint, (hashtextextended(distinct_id, 1) & 1048575) % $4::integer, id, event, distinct_id, occurred_at,
                path, language, browser_language, referrer_host, utm_source, utm_campaign, device, browser, os, country
         FROM analytics_events
         WHERE ${SPAN_EVENTS} AND occurred_at >= $5::timestamptz AND (occurred_at, id) > ($5::timestamptz, $6::bigint)
         ORDER BY occurred_at, id LIMIT $7::integer
         RETURNING occurred_at, id
       )
       SELECT occurred_at::text AS "occurredAt", id::text, count(*) OVER ()::integer AS copied
       FROM copied ORDER BY copied.occurred_at DESC, copied.id DESC LIMIT 1`,
      [...span, run, shares, ...after, eventsPerStatement],
    );
    copied = last?.copied ?? 0;
    if (last) after = [last.occurredAt, last.id];
  }
  return run;
}

/**
 * Removes a run's copy. When no other run has rows, the table is emptied at once: PGlite has no
 * autovacuum, and deleted rows would leave their space behind (and a vacuum of a busy day's copy
 * held the server's thread for 60 ms, where this takes a few). The lock keeps another instance's
 * copy from landing between the look and the emptying.
 */
async function dropCopy(db: Database, run: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('LOCK TABLE analytics_rollup_scratch IN ACCESS EXCLUSIVE MODE');
    const [copies] = await tx.query<{ others: boolean }>(
      'SELECT coalesce(min(run) <> $1::bigint OR max(run) <> $1::bigint, false) AS others FROM analytics_rollup_scratch',
      [run],
    );
    if (copies?.others) await tx.query('DELETE FROM analytics_rollup_scratch WHERE run = $1', [run]);
    else await tx.query('TRUNCATE analytics_rollup_scratch');
  });
}

/**
 * The rows of the days between `start` and `end`, worked out from raw events. A span of more than
 * `eventsPerStatement` events is copied once and read a share of the visitors at a time, with pages
 * served in between: each share reads its own rows, so the work grows with the span's events, not
 * with their square as when each share picked its visitors from the whole span (decision 266). A
 * share holds whole visits and visitors no other share has, so the shares' counts add up and their
 * sketches merge. A day's totals row gets its bounces and visit length from its hours.
 */
async function dayRows(
  db: Database,
  start: Date,
  end: Date,
  timeZone: string,
  eventsPerStatement = EVENTS_PER_STATEMENT[db.kind],
): Promise<SketchedRow[]> {
  const span = [start.toISOString(), end.toISOString()];
  // PGlite answers without a turn of the event loop: requests that arrived during the statements
  // before this one, during a share, or while its rows were merged, are served before the next.
  await setImmediate();
  const [counted] = await db.query<{ events: number }>(
    `SELECT count(*)::integer AS events FROM analytics_events WHERE ${SPAN_EVENTS}`,
    span,
  );
  const shares = Math.ceil((counted?.events ?? 0) / eventsPerStatement);
  const merged = new Map<string, SketchedRow>();
  const merge = (rows: (DayRow & { bits: number[] })[]) => {
    for (const { bits, ...row } of rows) {
      const key = JSON.stringify([row.day, row.hour, row.dimension, row.value]);
      const known = merged.get(key);
      if (!known) {
        merged.set(key, { ...row, registers: registersFromBits(bits) });
        continue;
      }
      known.visitors += row.visitors;
      known.visits += row.visits;
      known.views += row.views;
      known.bounces += row.bounces;
      known.seconds += row.seconds;
      mergeInto(known.registers, registersFromBits(bits));
    }
  };
  if (shares <= 1) merge(await rowsOf(db, span, timeZone));
  else {
    const run = await copyIntoShares(db, span, shares, eventsPerStatement);
    try {
      for (let share = 0; share < shares; share++) {
        await setImmediate();
        merge(await rowsOf(db, span, timeZone, [run, share]));
      }
    } finally {
      await setImmediate();
      await dropCopy(db, run);
    }
  }
  const sketched = [...merged.values()];
  for (const totals of sketched.filter((row) => row.dimension === '' && row.hour === null)) {
    for (const hour of sketched.filter((row) => row.day === totals.day && row.hour !== null)) {
      totals.bounces += hour.bounces;
      totals.seconds += hour.seconds;
    }
  }
  return sketched;
}

/** How often the current day is rolled up again while events arrive. */
const TODAY_EVERY_MS = 5 * 60 * 1000;

/** The instant a calendar day starts in the site's time zone, and the day after. */
const startOf = (day: string, timeZone: string) => new Date(instantOf(Date.parse(`${day}T00:00:00Z`), timeZone));
const nextDay = (day: string) => dayOf(Date.parse(`${day}T00:00:00Z`) + DAY);

/**
 * Rolls up, oldest first: every rolled day that events have arrived for since (a late batch); the
 * site's days that have ended and are not rolled up yet, with the late ones `maxDays` at most; and
 * the current day so far, when events have arrived and its roll-up is five minutes old. Days rolled
 * in another time zone are dropped first: a change of the site's time zone rolls everything again.
 * Returns the days rolled.
 */
export async function rollUpDays(
  db: Database,
  timeZone: string,
  now: Date,
  maxDays = 7,
  eventsPerStatement = EVENTS_PER_STATEMENT[db.kind],
): Promise<string[]> {
  await db.query(
    'DELETE FROM analytics_day_rollups WHERE day IN (SELECT day FROM analytics_rolled_days WHERE time_zone <> $1)',
    [timeZone],
  );
  const [changed] = await db.query('DELETE FROM analytics_rolled_days WHERE time_zone <> $1 RETURNING day', [timeZone]);
  if (changed) await db.query('DELETE FROM analytics_month_rollups');
  const today = dayOf(wallClock(now.getTime(), timeZone));
  const [state] = await db.query<{
    newest: string | null;
    seen: string | null;
    first: string | null;
    today: boolean;
    todayThrough: Date | null;
  }>(
    `SELECT to_char(max(day) FILTER (WHERE through IS NULL), 'YYYY-MM-DD') AS newest, max(last_event_id)::text AS seen,
            (SELECT to_char(min(occurred_at) AT TIME ZONE $1, 'YYYY-MM-DD') FROM analytics_events) AS first,
            coalesce(bool_or(day = $2::date), false) AS today,
            max(through) FILTER (WHERE day = $2::date) AS "todayThrough"
     FROM analytics_rolled_days`,
    [timeZone, today],
  );
  // The days that events arrived for since the last roll-up: each earlier day by name (a late batch),
  // the current day by one event found. Most new events are the current day's, and naming each
  // one's day was the longest statement of a busy day's roll-up. The new events are found through
  // their ids: without statistics, PGlite's planner read the whole table for them, twice (decision 266).
  const arrived = state?.seen
    ? (
        await querySetting<{ day: string }>(
          db,
          ['enable_seqscan = off'],
          `SELECT DISTINCT to_char(occurred_at AT TIME ZONE $1, 'YYYY-MM-DD') AS day FROM analytics_events
             WHERE id > $2::bigint AND occurred_at < $3::timestamptz
             UNION ALL
             SELECT $4 WHERE EXISTS (SELECT FROM analytics_events WHERE id > $2::bigint AND occurred_at >= $3::timestamptz)`,
          [timeZone, state.seen, startOf(today, timeZone).toISOString(), today],
        )
      ).map((row) => row.day)
    : [];
  // The current day again once its roll-up is TODAY_EVERY_MS old: on PGlite a busy day's statement
  // holds the server's thread for a fraction of a second.
  const todayStale = !state?.todayThrough || now.getTime() - new Date(state.todayThrough).getTime() >= TODAY_EVERY_MS;
  const due = arrived.filter((day) => (day === today && todayStale) || (state?.newest && day <= state.newest));
  // After the newest rolled day, each day with events is due; days without any are noted as rolled
  // at once, so that a quiet spell (or a history that starts years ago) costs one statement.
  let day = state?.newest ? nextDay(state.newest) : state?.first;
  while (day && day <= today && due.length < maxDays) {
    const [next] = await db.query<{ day: string | null }>(
      `SELECT to_char(min(occurred_at) AT TIME ZONE $2, 'YYYY-MM-DD') AS day FROM analytics_events
       WHERE occurred_at >= $1::timestamptz`,
      [startOf(day, timeZone).toISOString(), timeZone],
    );
    const busy = next?.day && next.day <= today ? next.day : null;
    const quietUntil = busy ?? today;
    if (day < quietUntil) {
      await db.query(
        `INSERT INTO analytics_rolled_days (day, time_zone, last_event_id)
         SELECT quiet::date, $3, 0 FROM generate_series($1::date, $2::date - 1, interval '1 day') AS quiet
         ON CONFLICT (day) DO NOTHING`,
        [day, quietUntil, timeZone],
      );
    }
    if (!busy) break;
    if (busy < today || !state?.today) due.push(busy);
    day = nextDay(busy);
  }
  const days = [...new Set(due)].sort();
  for (const day of days) await rollUp(db, day, timeZone, day === today ? now : null, eventsPerStatement);
  const ended = new Set(days.filter((day) => nextMonth(day) <= today).map(monthOf));
  for (const month of ended) await mergeMonth(db, month);
  return days;
}

/** The first day of a day's month, and the first day of the month after. */
const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
const nextMonth = (day: string) => {
  const date = new Date(`${monthOf(day)}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return dayOf(date.getTime());
};

/** Merges an ended month's day rows into its month rows. */
async function mergeMonth(db: Database, month: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM analytics_month_rollups WHERE month = $1::date', [month]);
    await tx.query(
      `INSERT INTO analytics_month_rollups (month, dimension, value, visitors, most, visits, views, bounces, seconds, sketch)
       SELECT $1::date, dimension, value, sum(visitors), max(visitors), sum(visits), sum(views), sum(bounces), sum(seconds),
              bit_or(sketch)
       FROM analytics_day_rollups WHERE day >= $1::date AND day < $2::date AND hour IS NULL GROUP BY dimension, value`,
      [month, nextMonth(month)],
    );
  });
}

/** Rolls up one day, or the current one up to `through`: its rows are replaced, and it is noted as rolled. */
async function rollUp(
  db: Database,
  day: string,
  timeZone: string,
  through: Date | null,
  eventsPerStatement: number,
): Promise<void> {
  const [{ seen } = { seen: '0' }] = await db.query<{ seen: string }>(
    'SELECT coalesce(max(id), 0)::text AS seen FROM analytics_events',
  );
  const end = through ?? startOf(nextDay(day), timeZone);
  const rows = await dayRows(db, startOf(day, timeZone), end, timeZone, eventsPerStatement);
  // Requests that arrived during the last share are served before the day's rows are written.
  await setImmediate();
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM analytics_day_rollups WHERE day = $1::date', [day]);
    await tx.query(
      `INSERT INTO analytics_day_rollups (day, hour, dimension, value, visitors, visits, views, bounces, seconds, sketch)
       SELECT $1::date, * FROM unnest($2::integer[], $3::text[], $4::text[], $5::integer[], $6::integer[], $7::integer[],
         $8::integer[], $9::float8[], $10::text[]::bit varying[])`,
      [
        day,
        rows.map((row) => row.hour),
        rows.map((row) => row.dimension),
        rows.map((row) => row.value),
        rows.map((row) => row.visitors),
        rows.map((row) => row.visits),
        rows.map((row) => row.views),
        rows.map((row) => row.bounces),
        rows.map((row) => row.seconds),
        rows.map((row) => sketchOf(row.registers)),
      ],
    );
    await tx.query(
      `INSERT INTO analytics_rolled_days (day, time_zone, through, last_event_id) VALUES ($1::date, $2, $3::timestamptz, $4::bigint)
       ON CONFLICT (day) DO UPDATE SET time_zone = $2, through = $3::timestamptz, rolled_at = statement_timestamp(),
         last_event_id = $4::bigint`,
      [day, timeZone, through?.toISOString() ?? null, seen],
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
  await db.query(
    `DELETE FROM analytics_month_rollups WHERE month < (statement_timestamp() - $1::integer * interval '1 day')::date`,
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

/** How a span is read: whole days from the roll-ups, a day cut at an hour, and runs of raw events. */
interface Plan {
  /** Days read from their roll-ups; the current day as far as it was rolled up. */
  stored: string[];
  /** Months whose days are all stored and whose merged rows stand for those days' breakdowns. */
  months: string[];
  /** The previous period's last day, cut where the current period is now: its hours before `hour`. */
  cut: { day: string; hour: number } | null;
  /** Runs of consecutive time worked out from raw events. */
  live: { start: Date; end: Date }[];
}

/**
 * How to read a span. Days before the first event or after the last are left out, so that a span
 * of centuries costs no more than the events' own days. The current day is read as far as the job
 * rolled it up (five minutes ago at most); a day the job has not rolled up is worked out from raw events.
 */
async function planOf(db: Queryable, span: Span, timeZone: string, withBreakdowns: boolean): Promise<Plan> {
  const plan: Plan = { stored: [], months: [], cut: null, live: [] };
  const [bounds] = await db.query<{ first: string | null; last: string | null }>(
    `SELECT to_char(min(occurred_at) AT TIME ZONE $1, 'YYYY-MM-DD') AS first,
            to_char(max(occurred_at) AT TIME ZONE $1, 'YYYY-MM-DD') AS last FROM analytics_events`,
    [timeZone],
  );
  if (!bounds?.first || !bounds.last) return plan;
  const from = bounds.first > span.from ? bounds.first : span.from;
  const to = bounds.last < span.to ? bounds.last : span.to;
  if (from > to) return plan;
  const rolled = new Map(
    (
      await db.query<{ day: string; through: Date | null }>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, through FROM analytics_rolled_days
         WHERE day BETWEEN $1::date AND $2::date AND time_zone = $3`,
        [from, to, timeZone],
      )
    ).map((row) => [row.day, row.through ? new Date(row.through).getTime() : null]),
  );
  let dayEnd = startOf(from, timeZone).getTime();
  for (let day = from; day <= to; day = nextDay(day)) {
    const dayStart = dayEnd;
    dayEnd = startOf(nextDay(day), timeZone).getTime();
    const start = Math.max(dayStart, span.start.getTime());
    const end = Math.min(dayEnd, span.end.getTime());
    if (start >= end) continue;
    const through = rolled.get(day);
    const fromDayStart = start === dayStart && through !== undefined;
    if (fromDayStart && (through === null ? end === dayEnd : end >= through)) {
      plan.stored.push(day);
    } else if (fromDayStart && through === null && !withBreakdowns) {
      plan.cut = { day, hour: new Date(wallClock(end, timeZone)).getUTCHours() };
    } else {
      const previous = plan.live.at(-1);
      if (previous?.end.getTime() === start) previous.end = new Date(end);
      else plan.live.push({ start: new Date(start), end: new Date(end) });
    }
  }
  const merged = await db.query<{ month: string }>(
    `SELECT to_char(month, 'YYYY-MM-DD') AS month FROM analytics_month_rollups
     WHERE month BETWEEN $1::date AND $2::date AND dimension = ''`,
    [monthOf(from), to],
  );
  // A month stands for its days when each of them that could have events is read from the roll-ups.
  const stored = new Set(plan.stored);
  const { first, last } = bounds;
  for (const { month } of merged) {
    let whole = true;
    for (let day = month; whole && day < nextMonth(month); day = nextDay(day)) {
      whole = day < first || day > last || stored.has(day);
    }
    if (whole) plan.months.push(month);
  }
  return plan;
}

/** The page views a plan covers, from the roll-ups' totals and a count of the raw events. */
async function viewsIn(db: Queryable, { stored, cut, live }: Plan): Promise<number> {
  const [rolled] = await db.query<{ views: number }>(
    `SELECT (SELECT coalesce(sum(views), 0) FROM analytics_day_rollups
             WHERE day = ANY($1::date[]) AND dimension = '' AND hour IS NULL)
          + (SELECT coalesce(sum(views), 0) FROM analytics_day_rollups
             WHERE day = $2::date AND dimension = '' AND hour < $3::integer) AS views`,
    [stored, cut?.day ?? null, cut?.hour ?? null],
  );
  let views = Number(rolled?.views ?? 0);
  for (const { start, end } of live) {
    const [counted] = await db.query<{ views: number }>(
      `SELECT count(*)::integer AS views FROM analytics_events
       WHERE occurred_at >= $1::timestamptz AND occurred_at < $2::timestamptz AND event = '$pageview'`,
      [start.toISOString(), end.toISOString()],
    );
    views += counted?.views ?? 0;
  }
  return views;
}

/** Up to this many page views a span is measured exactly from raw events; above, from the roll-ups. */
export const EXACT_UP_TO_VIEWS = 2_000;

/**
 * The parts of a span's answer (as `measure` in dashboard.ts gives them) from the day roll-ups
 * (decision 253), or null when the span has at most `exactUpTo` page views: raw events then answer
 * it exactly and fast enough. Unique visitors over more than a day are estimated from the merged
 * sketches; every other number is exact.
 */
export async function rolledUpParts(
  db: Database,
  span: Span,
  timeZone: string,
  withBreakdowns: boolean,
  exactUpTo = EXACT_UP_TO_VIEWS,
): Promise<Part[] | null> {
  const plan = await planOf(db, span, timeZone, withBreakdowns);
  const { stored, months, cut, live } = plan;
  if (exactUpTo > 0 && (await viewsIn(db, plan)) <= exactUpTo) return null;
  const daily: DayRow[] = [];
  const merged = new Map<string, Merged>();
  /** Adds a value's numbers of one or more rows; `most` and `sum` are its largest and summed exact visitors. */
  const add = (row: DayRow, registers: Registers, most: number, sum: number) => {
    const key = `${row.dimension}\u0000${row.value ?? '\u0001'}`;
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
  const MERGED = `dimension, value, max(most)::integer AS most, sum(visitors)::integer AS visitors,
    sum(visits)::integer AS visits, sum(views)::integer AS views, sum(bounces)::integer AS bounces,
    sum(seconds)::float8 AS seconds, bit_or(sketch)::text AS sketch`;
  type MergedRow = DayRow & { sketch: string; most: number };
  if (stored.length > 0) {
    daily.push(
      ...(await db.query<DayRow>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, dimension, value, visitors, visits, views, bounces, seconds
         FROM analytics_day_rollups WHERE day = ANY($1::date[]) AND hour IS NULL AND dimension IN ${chartDimensions}`,
        [stored],
      )),
    );
    const rows = await db.query<MergedRow>(
      `SELECT ${MERGED} FROM (
         SELECT dimension, value, visitors, visitors AS most, visits, views, bounces, seconds, sketch
         FROM analytics_day_rollups WHERE day = ANY($1::date[]) AND hour IS NULL ${wanted}
         UNION ALL
         SELECT dimension, value, visitors, most, visits, views, bounces, seconds, sketch
         FROM analytics_month_rollups WHERE month = ANY($2::date[]) ${wanted}
       ) AS rows GROUP BY dimension, value`,
      [stored.filter((day) => !months.includes(monthOf(day))), months],
    );
    for (const row of rows) add(row, registersOf(row.sketch), row.most, row.visitors);
  }
  if (cut) {
    const [row] = await db.query<MergedRow>(
      `SELECT ${MERGED} FROM (SELECT *, visitors AS most FROM analytics_day_rollups) AS rows
       WHERE day = $1::date AND hour < $2::integer AND dimension = '' GROUP BY dimension, value`,
      [cut.day, cut.hour],
    );
    if (row) {
      const registers = registersOf(row.sketch);
      const visitors = estimateVisitors(registers, row.most, row.visitors);
      daily.push({ ...row, day: cut.day, hour: null, visitors });
      add(row, registers, visitors, visitors);
    }
  }
  for (const { start, end } of live) {
    for (const row of await dayRows(db, start, end, timeZone)) {
      if (row.hour !== null || (!withBreakdowns && row.dimension !== '')) continue;
      if (row.dimension === '' || (withBreakdowns && row.dimension === 'language')) daily.push(row);
      add(row, row.registers, row.visitors, row.visitors);
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
