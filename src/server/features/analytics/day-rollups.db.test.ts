import { expect, it } from 'vitest';
import type { AnalyticsAnswer } from '#common/analytics-api.ts';
import { describeOnDatabases } from '#tests/support/databases.ts';
import { dashboard } from './dashboard.ts';
import { rollUpDays } from './day-rollups.ts';
import { storeEvents } from './events-store.ts';
import { periodOf } from './periods.ts';
import type { AnalyticsEvent } from './posthog-payload.ts';
import { estimateVisitors, oneVisitorSketchSql, registersOf } from './visitor-sketch.ts';

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
 * A week and a half around the change to summer time in Berlin (29 March 2026): every day 40 to 79
 * visitors, a third of them back from earlier days, reading one to four pages in three languages,
 * from two referrers and two countries; some visits run across midnight.
 */
function traffic(): AnalyticsEvent[] {
  const events: AnalyticsEvent[] = [];
  const first = Date.parse('2026-03-22T00:00:00Z');
  for (let day = 0; day < 11; day++) {
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

const rounded = (answer: Awaited<ReturnType<typeof dashboard>>) => ({
  ...answer,
  headline: { ...answer.headline, visitors: 0 },
  previousHeadline: { ...answer.previousHeadline, visitors: 0 },
  breakdowns: Object.fromEntries(
    Object.entries(answer.breakdowns).map(([name, rows]) => [
      name,
      rows.map((row) => ({ ...row, visitors: 0 })).sort((a, b) => a.key.localeCompare(b.key)),
    ]),
  ),
});

const near = (estimate: number, exact: number) => Math.abs(estimate - exact) <= Math.max(1, exact * 0.1);

describeOnDatabases('analytics day roll-ups', (db) => {
  it('estimates unique visitors from sketches merged with bit_or', async () => {
    for (const visitors of [1, 7, 60, 900, 20_000]) {
      const [row] = await db().query<{ sketch: string }>(
        `SELECT bit_or(${oneVisitorSketchSql(`hashtextextended('visitor-' || n, 0)`)})::text AS sketch
         FROM generate_series(1, $1::integer) AS n`,
        [visitors],
      );
      const estimate = estimateVisitors(registersOf(row?.sketch as string), 0, Number.POSITIVE_INFINITY);
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
    const days = await rollUpDays(db(), ZONE, now);
    expect(days[0]).toBe('2026-03-22');
    expect(days.at(-1)).toBe('2026-03-31');
    // Rolled whole days, the running day and the previous period's cut day worked out live.
    for (const asked of [{ period: '7d' as const }, { from: '2026-03-22', to: '2026-04-01' }]) {
      const period = periodOf(asked, ZONE, now);
      const rolled = await dashboard(db(), period, ZONE, {}, 0);
      const exact = await dashboard(db(), period, ZONE, {}, Number.POSITIVE_INFINITY);
      expect(rolled.headline.views).toBeGreaterThan(1000);
      expect(rounded(rolled)).toEqual(rounded(exact));
      expect(near(rolled.headline.visitors, exact.headline.visitors), `${rolled.headline.visitors}`).toBe(true);
      for (const [name, rows] of Object.entries(rolled.breakdowns) as [keyof AnalyticsAnswer['breakdowns'], []][]) {
        for (const row of rows as AnalyticsAnswer['breakdowns']['page']) {
          const truth = exact.breakdowns[name].find((other) => other.key === row.key);
          expect(near(row.visitors, truth?.visitors ?? -1), `${name} ${row.key}: ${row.visitors}`).toBe(true);
        }
      }
    }
  });

  it('rolls a day again when a late batch arrives, and everything again in a new time zone', async () => {
    const now = new Date('2026-04-01T10:05:00Z');
    expect(await rollUpDays(db(), ZONE, now)).toEqual([]);
    const period = periodOf({ from: '2026-03-23', to: '2026-03-24' }, ZONE, now);
    const before = await dashboard(db(), period, ZONE, {}, 0);
    await storeEvents(db(), [view('late', '/en/late', Date.parse('2026-03-23T12:00:00Z'))]);
    expect(await rollUpDays(db(), ZONE, now)).toEqual(['2026-03-23']);
    const after = await dashboard(db(), period, ZONE, {}, 0);
    expect(after.headline.views).toBe(before.headline.views + 1);
    expect(after.breakdowns.page.find((row) => row.key === '/en/late')).toMatchObject({ visits: 1, views: 1 });

    const rolled = await rollUpDays(db(), 'Asia/Bangkok', now);
    expect(rolled[0]).toBe('2026-03-22');
    const bangkok = periodOf({ from: '2026-03-23', to: '2026-03-29' }, 'Asia/Bangkok', now);
    expect(rounded(await dashboard(db(), bangkok, 'Asia/Bangkok', {}, 0))).toEqual(
      rounded(await dashboard(db(), bangkok, 'Asia/Bangkok', {}, Number.POSITIVE_INFINITY)),
    );
  });
});
