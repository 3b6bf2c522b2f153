import { expect, it } from 'vitest';
import type { AnalyticsAnswer } from '#common/analytics-api.ts';
import type { Database } from '#server/platform/db/database.ts';
import { describeOnDatabases } from '#tests/support/databases.ts';
import { dashboard } from './dashboard.ts';
import { pruneRollups, rollUpDays } from './day-rollups.ts';
import { storeEvents } from './events-store.ts';
import { periodOf } from './periods.ts';
import type { AnalyticsEvent } from './posthog-payload.ts';
import { estimateVisitors, registersFromBits, registersOf, sketchBitSql } from './visitor-sketch.ts';

const MINUTE = 60 * 1000;
const ZONE = 'Europe/Berlin';
let uuid = 0;
const view = (distinctId: string, path: string, at: number, more: Partial<AnalyticsEvent> = {}): AnalyticsEvent => ({
  uuid: `rollup-${uuid++}`,
  event: '$pageview',
  distinctId,
  path,
  language: (path.split('/')[1] ?? null) as 'en' | 'it' | null,
  occurredAt: new Date(at),
  ...more,
});

/**
 * A week and a half around the change to summer time in Berlin (29 March 2026): every day but two 40 to 79
 * visitors, a third of them back from earlier days, reading one to four pages in three languages,
 * from two referrers and two countries; some visits run across midnight.
 */
function traffic(): AnalyticsEvent[] {
  const events: AnalyticsEvent[] = [];
  const first = Date.parse('2026-03-22T00:00:00Z');
  for (let day = 0; day < 11; day++) {
    // Nobody came on 26 and 27 March (UTC): 27 March in Berlin is quiet.
    if (day === 4 || day === 5) continue;
    const visitors = 40 + ((day * 17) % 40);
    for (let n = 0; n < visitors; n++) {
      const id = n % 3 === 0 ? `back-${n}` : `day${day}-${n}`;
      const start = first + day * 24 * 60 * MINUTE + (n * 23 * 60 * MINUTE) / visitors + (n % 2) * 45 * MINUTE;
      const language = ['en', 'it', 'th'][n % 3] as string;
      const more = {
        referrerHost: n % 4 === 0 ? 'search.example' : n % 4 === 1 ? 'news.example' : undefined,
        country: n % 5 === 0 ? 'NL' : 'TH',
      };
      for (let page = 0; page <= n % 4; page++) {
        events.push(view(id, `/${language}${page ? `/page-${page}` : ''}`, start + page * 7 * MINUTE, more));
      }
    }
  }
  return events;
}

/** An answer without its unique visitors, which the roll-ups estimate. */
const rounded = (answer: Awaited<ReturnType<typeof dashboard>>) => ({
  ...answer,
  estimated: null,
  headline: { ...answer.headline, visitors: 0 },
  previousHeadline: { ...answer.previousHeadline, visitors: 0 },
  breakdowns: Object.fromEntries(
    Object.entries(answer.breakdowns).map(([name, rows]) => [
      name,
      rows.map((row) => ({ ...row, visitors: 0 })).sort((a, b) => a.key.localeCompare(b.key)),
    ]),
  ),
});

/** Runs the roll-up as the job would until it has nothing left to do; returns every day it rolled. */
async function rollAll(db: Database, timeZone: string, now: Date): Promise<string[]> {
  const rolled: string[] = [];
  for (let days = await rollUpDays(db, timeZone, now); days.length > 0; days = await rollUpDays(db, timeZone, now)) {
    rolled.push(...days);
  }
  return rolled;
}

const near = (estimate: number, exact: number) => Math.abs(estimate - exact) <= Math.max(1, exact * 0.1);

describeOnDatabases('analytics day roll-ups', (db) => {
  it('estimates unique visitors from sketches merged with bit_or', async () => {
    for (const visitors of [1, 7, 60, 900, 20_000]) {
      const [row] = await db().query<{ bits: number[] }>(
        `SELECT array_agg(${sketchBitSql(`hashtextextended('visitor-' || n, 0)`)}) AS bits
         FROM generate_series(1, $1::integer) AS n`,
        [visitors],
      );
      const estimate = estimateVisitors(registersFromBits(row?.bits ?? []), 0, Number.POSITIVE_INFINITY);
      expect(Math.abs(estimate - visitors), `${estimate} for ${visitors}`).toBeLessThanOrEqual(
        visitors < 100 ? 1 : visitors * 0.1,
      );
    }
    // The exact daily counts bound the estimate.
    const none = registersOf('0'.repeat(8192));
    expect(estimateVisitors(none, 5, 9)).toBe(5);
  });

  it('answers from the roll-ups as from raw events, across midnight and a change of clock', async () => {
    await storeEvents(db(), traffic());
    const now = new Date('2026-04-01T10:00:00Z');
    const days = await rollAll(db(), ZONE, now);
    // The ended days and today so far; the quiet day is noted as rolled, with no rows.
    expect(days[0]).toBe('2026-03-22');
    expect(days.at(-1)).toBe('2026-04-01');
    expect(days).not.toContain('2026-03-27');
    expect(await db().query(`SELECT 1 FROM analytics_rolled_days WHERE day = '2026-03-27'`)).toHaveLength(1);
    // March has ended: its days are merged, and the range of 22 March to 1 April reads the month.
    const march = await db().query(`SELECT 1 FROM analytics_month_rollups WHERE month = '2026-03-01'`);
    expect(march.length).toBeGreaterThan(10);
    for (const asked of [{ period: '7d' as const }, { from: '2026-03-22', to: '2026-04-01' }]) {
      const period = periodOf(asked, ZONE, now);
      const rolled = await dashboard(db(), period, ZONE, {}, 0);
      const exact = await dashboard(db(), period, ZONE, {}, Number.POSITIVE_INFINITY);
      expect(rolled.headline.views).toBeGreaterThan(500);
      expect([rolled.estimated, exact.estimated]).toEqual([true, false]);
      // The previous period's last day is cut at the hour, with the visits begun before it whole.
      const { previousHeadline, previousSeries, ...current } = rounded(rolled);
      const { previousHeadline: exactHeadline, previousSeries: exactSeries, ...exactCurrent } = rounded(exact);
      expect(current).toEqual(exactCurrent);
      expect(previousSeries.slice(0, -1)).toEqual(exactSeries.slice(0, -1));
      expect(near(previousHeadline.views, exactHeadline.views), `${previousHeadline.views}`).toBe(true);
      expect(near(rolled.headline.visitors, exact.headline.visitors), `${rolled.headline.visitors}`).toBe(true);
      for (const [name, rows] of Object.entries(rolled.breakdowns) as [keyof AnalyticsAnswer['breakdowns'], []][]) {
        for (const row of rows as AnalyticsAnswer['breakdowns']['page']) {
          const truth = exact.breakdowns[name].find((other) => other.key === row.key);
          expect(near(row.visitors, truth?.visitors ?? -1), `${name} ${row.key}: ${row.visitors}`).toBe(true);
        }
      }
    }
  });

  it('rolls a busy day a share of its visitors at a time, to the same rows as in one statement', async () => {
    // Each event twice, the second with a later id: events of one instant, which the copy into
    // shares must take once each wherever its chunks end.
    await storeEvents(db(), traffic());
    await storeEvents(db(), traffic());
    const now = new Date('2026-04-01T10:00:00Z');
    const rows = () =>
      db().query(
        `SELECT day, hour, dimension, value, visitors, visits, views, bounces, seconds, sketch::text
         FROM analytics_day_rollups ORDER BY day, hour NULLS FIRST, dimension, value NULLS FIRST`,
      );
    const rollEverything = async (eventsPerStatement: number) => {
      await db().query('DELETE FROM analytics_rolled_days');
      await db().query('DELETE FROM analytics_day_rollups');
      while ((await rollUpDays(db(), ZONE, now, 7, eventsPerStatement)).length > 0);
      return rows();
    };
    const whole = await rollEverything(Number.POSITIVE_INFINITY);
    // A copy left by a server that stopped during a roll-up an hour ago, and one under way in another instance.
    const scratch = (hoursAgo: number) =>
      db().query(
        `INSERT INTO analytics_rollup_scratch (run, share, copied_at, id, event, distinct_id, occurred_at)
         VALUES ($1::bigint, 0, statement_timestamp() - $2::integer * interval '1 hour', 1, '$pageview', 'left', statement_timestamp())`,
        [hoursAgo, hoursAgo],
      );
    await scratch(2);
    await scratch(0);
    // Some 400 events a day: 60 shares of 7 or so, most visitors alone in theirs.
    const inShares = await rollEverything(7);
    expect(whole.length).toBeGreaterThan(500);
    expect(inShares).toEqual(whole);
    const left = () => db().query<{ run: string }>('SELECT run::text FROM analytics_rollup_scratch');
    expect(await left()).toEqual([{ run: '0' }]);
    // With no other copy under way, the table is emptied, and its space given back (PGlite has no autovacuum).
    await db().query('DELETE FROM analytics_rollup_scratch');
    expect(await rollEverything(7)).toEqual(whole);
    expect(await left()).toEqual([]);
    const [size] = await db().query<{ bytes: number }>(
      `SELECT pg_relation_size('analytics_rollup_scratch')::integer AS bytes`,
    );
    expect(size?.bytes).toBe(0);
  });

  it('lets the event loop turn between the shares of a day, where requests are served', async () => {
    await storeEvents(db(), traffic());
    // PGlite answers without a turn of the event loop: without one between shares, this counts none.
    let turns = 0;
    let counting = true;
    const count = () => {
      if (!counting) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    await rollUpDays(db(), ZONE, new Date('2026-04-01T10:00:00Z'), 7, 7);
    counting = false;
    // Seven days of some 200 events, in shares of 7 or so: about 200 shares.
    expect(turns).toBeGreaterThan(100);
  });

  it('rolls today again every five minutes, a day again when a late batch arrives, and everything in a new time zone', async () => {
    // Today's roll-up (of 10:00) is taken again once it is five minutes old.
    await storeEvents(db(), [view('today', '/en/today', Date.parse('2026-04-01T10:02:00Z'))]);
    expect(await rollAll(db(), ZONE, new Date('2026-04-01T10:04:59Z'))).toEqual([]);
    const now = new Date('2026-04-01T10:05:00Z');
    expect(await rollAll(db(), ZONE, now)).toEqual(['2026-04-01']);
    const days = periodOf({ from: '2026-03-23', to: '2026-03-24' }, ZONE, now);
    const month = periodOf({ from: '2026-03-22', to: '2026-04-01' }, ZONE, now);
    const before = [await dashboard(db(), days, ZONE, {}, 0), await dashboard(db(), month, ZONE, {}, 0)];
    await storeEvents(db(), [view('late', '/en/late', Date.parse('2026-03-23T12:00:00Z'))]);
    expect(await rollAll(db(), ZONE, now)).toEqual(['2026-03-23']);
    const after = [await dashboard(db(), days, ZONE, {}, 0), await dashboard(db(), month, ZONE, {}, 0)];
    for (const [i, answer] of after.entries()) {
      expect(answer.headline.views).toBe((before[i]?.headline.views ?? 0) + 1);
      expect(answer.breakdowns.page.find((row) => row.key === '/en/late')).toMatchObject({ visits: 1, views: 1 });
    }

    const rolled = await rollAll(db(), 'Asia/Bangkok', now);
    expect(rolled[0]).toBe('2026-03-22');
    const bangkok = periodOf({ from: '2026-03-23', to: '2026-03-29' }, 'Asia/Bangkok', now);
    expect(rounded(await dashboard(db(), bangkok, 'Asia/Bangkok', {}, 0))).toEqual(
      rounded(await dashboard(db(), bangkok, 'Asia/Bangkok', {}, Number.POSITIVE_INFINITY)),
    );
  });

  it('drops roll-ups as old as the raw events it prunes, and keeps the younger ones', async () => {
    const count = async (table: string) =>
      (await db().query<{ rows: number }>(`SELECT count(*)::integer AS rows FROM ${table}`))[0]?.rows ?? 0;
    const tables = ['analytics_day_rollups', 'analytics_rolled_days', 'analytics_month_rollups'];
    const before = await Promise.all(tables.map(count));
    expect(before.every((rows) => rows > 0)).toBe(true);
    // The days above run from 22 March to 1 April 2026: a retention reaching back before them keeps
    // them all, one ending after them drops them all.
    const daysSince = (day: string) => Math.floor((Date.now() - Date.parse(day)) / (24 * 60 * MINUTE));
    await pruneRollups(db(), daysSince('2026-03-01'));
    expect(await Promise.all(tables.map(count))).toEqual(before);
    await pruneRollups(db(), daysSince('2026-04-03'));
    expect(await Promise.all(tables.map(count))).toEqual([0, 0, 0]);
  });
});
