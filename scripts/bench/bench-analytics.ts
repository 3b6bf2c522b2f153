// How fast the console's analytics answer over a long history: `npm run bench:analytics`.
// Seeds page views of many visitors over 400 days (10 million of 1 million visitors on
// PostgreSQL, 1 million of 100,000 on PGlite; ANALYTICS_BENCH_VIEWS changes it), rolls the
// days up as the jobs do (day-rollups.ts, decision 253), printing the longest a request would have
// waited for the server's thread meanwhile, then asks the analytics page's question
// for several periods and prints the first answer's time, the median (p50) and the p99.
// PGlite in a folder of its own, or, with DATABASE_URL, a schema of its own in that PostgreSQL.
// Both are kept for the next run when ANALYTICS_BENCH_KEEP names them (the seeding and the first
// roll-up take minutes), and dropped at the end otherwise. With ANALYTICS_BENCH_BUSY_DAY=N, it then
// adds N page views to today and times today's roll-up, with the longest a request waited.
// Budgets (first answer): PostgreSQL 30 days under 300 ms and 400 days under 1 s; PGlite 500 ms.
import { dashboard, periodOf, rollUpDays } from '#server/features/analytics/index.ts';
import type { Database } from '#server/platform/db/database.ts';
import { openBenchDatabase } from './bench-database.ts';
import { watchEventLoop } from './loop-waits.ts';

const url = process.env.DATABASE_URL;
const VIEWS = Number(process.env.ANALYTICS_BENCH_VIEWS ?? (url ? 10_000_000 : 1_000_000));
const VISITORS = VIEWS / 10;
const DAYS = 400;
const ROUNDS = 11;
const TIME_ZONE = 'Europe/Amsterdam';
const keep = process.env.ANALYTICS_BENCH_KEEP;
/** Page views added to today at the end, to time the roll-up of a busy day (ANALYTICS_BENCH_BUSY_DAY). */
const BUSY_DAY = Number(process.env.ANALYTICS_BENCH_BUSY_DAY ?? 0);
const name = keep ?? `bench_analytics_${process.pid}`;
const budgets: Record<string, number> = url
  ? { '30 days': 300, '400 days': 1000 }
  : { '30 days': 500, '400 days': 500 };

const { db, kind, drop } = await openBenchDatabase(name, { statementMs: 60 * 60 * 1000 });

/**
 * Visits of one to six page views two minutes apart, each by one of VISITORS visitors (some come
 * back often), at any time of the last DAYS days, in the six languages, with referrers, campaigns,
 * devices, browsers, systems and countries spread over a few values each. Deterministic (setseed).
 */
async function seed(database: Database): Promise<void> {
  // A visit has 2.94 page views on average (1 + floor(6 u^1.5) for u uniform in [0, 1)).
  const visits = Math.round(VIEWS / 2.938);
  const step = 250_000;
  for (let first = 0; first < visits; first += step) {
    await database.transaction(async (tx) => {
      await tx.query(`SELECT setseed(${(first / visits).toFixed(6)})`);
      await tx.query(
        `INSERT INTO analytics_events (event, distinct_id, path, language, occurred_at, referrer_host, browser_language,
           utm_source, utm_campaign, device, browser, os, country)
         SELECT '$pageview', 'visitor-' || v.visitor, '/' || v.language || (ARRAY['', '/about', '/pricing', '/contact',
           '/blog', '/blog/launch', '/blog/privacy', '/docs', '/docs/start', '/careers', '/legal/privacy', '/register',
           '/sign-in', '/faq', '/shop'])[1 + (v.page + n * 3) % 15], v.language,
           v.start + n * interval '2 minutes', v.referrer, v.browser_language, v.source, v.campaign, v.device, v.browser,
           v.os, v.country
         FROM (
           SELECT 1 + floor(${VISITORS} * power(random(), 2))::integer AS visitor,
                  statement_timestamp() - random() * interval '${DAYS} days' AS start,
                  (ARRAY['en', 'it', 'th', 'fr', 'de', 'nl'])[1 + floor(random() * 6)::integer] AS language,
                  floor(random() * 15)::integer AS page, 1 + floor(power(random(), 1.5) * 6)::integer AS views,
                  (ARRAY[NULL, NULL, 'www.google.com', 'duckduckgo.com', 'news.ycombinator.com', 't.co', 'www.bing.com',
                    'reddit.com'])[1 + floor(random() * 8)::integer] AS referrer,
                  (ARRAY['en', 'it', 'th', 'fr', 'de', 'nl', 'es', 'pt', 'ja', 'zh'])[1 + floor(random() * 10)::integer]
                    AS browser_language,
                  (ARRAY[NULL, NULL, NULL, 'newsletter', 'facebook', 'partner'])[1 + floor(random() * 6)::integer] AS source,
                  (ARRAY[NULL, NULL, NULL, 'spring', 'launch', 'black-friday'])[1 + floor(random() * 6)::integer] AS campaign,
                  (ARRAY['desktop', 'mobile', 'mobile', 'tablet'])[1 + floor(random() * 4)::integer] AS device,
                  (ARRAY['Chrome', 'Chrome', 'Safari', 'Firefox', 'Edge', 'Samsung Internet'])[1 + floor(random() * 6)::integer]
                    AS browser,
                  (ARRAY['Windows', 'macOS', 'iOS', 'Android', 'Android', 'Linux'])[1 + floor(random() * 6)::integer] AS os,
                  (ARRAY['NL', 'DE', 'IT', 'FR', 'TH', 'GB', 'US', 'BE', 'CH', 'AT', 'ES', 'PL', 'SE', 'JP', NULL])
                    [1 + floor(random() * 15)::integer] AS country
           FROM generate_series(1, ${Math.min(step, visits - first)})
         ) AS v, generate_series(0, v.views - 1) AS n`,
      );
    });
    process.stdout.write(`\r  seeded ${Math.min(first + step, visits)} of ${visits} visits`);
  }
  process.stdout.write('\n');
}

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
let failed = false;
try {
  const [{ views } = { views: 0 }] = await db.query<{ views: number }>(
    `SELECT count(*)::integer AS views FROM analytics_events`,
  );
  if (views === 0) {
    const started = performance.now();
    await seed(db);
    await db.query('ANALYZE');
    console.log(`Seeded in ${seconds(started)}`);
  }
  const [counted] = await db.query<{ views: number; visitors: number }>(
    `SELECT count(*)::integer AS views, count(DISTINCT distinct_id)::integer AS visitors FROM analytics_events`,
  );
  console.log(`${counted?.views} page views of ${counted?.visitors} visitors on ${kind}`);
  const rolling = performance.now();
  let rolled = 0;
  // On PGlite statements run on this thread.
  const loop = await watchEventLoop();
  for (
    let days = await rollUpDays(db, TIME_ZONE, new Date());
    days.length > 0;
    days = await rollUpDays(db, TIME_ZONE, new Date())
  ) {
    rolled += days.length;
    process.stdout.write(`\r  rolled up ${rolled} days in ${seconds(rolling)}`);
  }
  const waited = await loop.stop();
  if (rolled > 0) console.log(`; a request waited at most ${waited.toFixed(0)} ms meanwhile`);
  const periods = {
    today: { period: 'today' as const },
    '7 days': { period: '7d' as const },
    '30 days': { period: '30d' as const },
    '90 days': { period: '90d' as const },
    '400 days': {
      from: new Date(Date.now() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10),
      to: new Date().toISOString().slice(0, 10),
    },
  };
  for (const [label, asked] of Object.entries(periods)) {
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      await dashboard(db, periodOf(asked, TIME_ZONE, new Date()), TIME_ZONE, {});
      times.push(performance.now() - started);
    }
    const [first = 0] = times;
    const sorted = times.toSorted((a, b) => a - b);
    const budget = budgets[label];
    const verdict = budget === undefined ? '' : first < budget ? ` (within ${budget} ms)` : ` (OVER ${budget} ms)`;
    if (budget !== undefined && first >= budget) failed = true;
    console.log(
      `  ${label.padEnd(9)} first ${first.toFixed(0).padStart(6)} ms  p50 ${at(sorted, 0.5).toFixed(0).padStart(6)} ms  p99 ${at(sorted, 0.99).toFixed(0).padStart(6)} ms${verdict}`,
    );
  }
  if (BUSY_DAY > 0) {
    // Ten page views a visitor in the last hour, and today rolled up again as the job does.
    await db.query(
      `INSERT INTO analytics_events (event, distinct_id, path, language, occurred_at)
       SELECT '$pageview', 'busy-' || n / 10, '/en/p' || n % 10, 'en', statement_timestamp() - random() * interval '1 hour'
       FROM generate_series(0, $1::integer - 1) AS n`,
      [BUSY_DAY],
    );
    await db.query('DELETE FROM analytics_rolled_days WHERE through IS NOT NULL');
    const loop = await watchEventLoop();
    const started = performance.now();
    await rollUpDays(db, TIME_ZONE, new Date());
    const ms = performance.now() - started;
    console.log(
      `  today with ${BUSY_DAY} more page views rolled up in ${ms.toFixed(0)} ms; a request waited at most ${(await loop.stop()).toFixed(0)} ms meanwhile`,
    );
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  await db.close();
  if (!keep) await drop();
}
