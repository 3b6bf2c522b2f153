// Analytics events coming in at a fixed rate while pages are served: `npm run bench:ingest` (after
// `npm run build`), or `npm run bench:ingest -- --events 1000 --seconds 10`. The server runs in a
// child process as `npm run serve` starts it (api-bench-child.ts, with the built site), on PGlite
// in a temporary folder or on the PostgreSQL of DATABASE_URL (its events are removed afterwards).
// First a page alone at --pages requests a second, then the same page while posthog-js batches of
// ten events arrive at --events events a second, each batch from an address and a visitor of its
// own. Both loads are open loops: each request is due at its own moment and its latency counts from
// then. It prints the page's p50 and p99 quiet and during the events, the batches' p99, and how many
// events were stored. Budget (issue 35): 1,000 events a second on one instance, every one stored,
// with the page's p99 unchanged.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { POSTHOG_PATH } from '#common/analytics.ts';
import { openDatabase } from '#server/platform/db/database.ts';
import { startApiBenchChild } from './api-bench-child.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000' },
    pages: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '10' },
  },
});
const EVENTS = Number(args.events);
const PAGES = Number(args.pages);
const SECONDS = Number(args.seconds);
const PER_BATCH = 10;
const PAGE = '/en';
const run = randomUUID().slice(0, 8);

const server = await startApiBenchChild({ BENCH_SITE: '1' });
const { port, dataDir } = server;

const agent = new Agent({ keepAlive: true, maxSockets: 256 });
interface Answer {
  status: number;
  ms: number;
}
/** One request, its latency counted from the moment it was due. */
function send(due: number, method: string, target: string, body?: string, address?: string): Promise<Answer> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { 'Accept-Encoding': 'br' };
    if (body) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    if (address) headers['X-Forwarded-For'] = address;
    const req = request({ agent, host: '127.0.0.1', port, method, path: target, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - due }));
    });
    req.on('error', () => resolve({ status: 0, ms: performance.now() - due }));
    req.end(body);
  });
}

/** A batch of posthog-js page views of one visitor, as its beacon sends them. */
function batch(n: number): string {
  const visitor = `bench-${run}-${n}`;
  const now = Date.now();
  return JSON.stringify({
    batch: Array.from({ length: PER_BATCH }, (_, i) => ({
      event: '$pageview',
      uuid: randomUUID(),
      timestamp: new Date(now - (PER_BATCH - i) * 1000).toISOString(),
      properties: {
        distinct_id: visitor,
        $current_url: `http://127.0.0.1:${port}/${['en', 'it', 'th', 'fr', 'de', 'nl'][i % 6]}/about`,
        $host: `127.0.0.1:${port}`,
        $referrer: 'https://search.example/',
        $browser_language: 'nl-NL',
      },
    })),
  });
}

/** Sends `make(n, due)` `rate` times a second for SECONDS (after one second of warm-up, left out). */
async function fixedRate(rate: number, make: (n: number, due: number) => Promise<Answer>): Promise<Answer[]> {
  const total = rate * (SECONDS + 1);
  const results: Promise<Answer>[] = [];
  const start = performance.now() + 20;
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && start + (next * 1000) / rate <= now) {
        results.push(make(next, start + (next * 1000) / rate));
        next += 1;
      }
      if (next < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  return (await Promise.all(results)).slice(rate);
}

const summary = (answers: Answer[]) => {
  const sorted = answers.map(({ ms }) => ms).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const failed = answers.filter(({ status }) => status !== 200).length;
  return { p50: at(0.5), p99: at(0.99), failed, text: `p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms` };
};

try {
  const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  // The first event loads the country table (decision 215): before the figures, not in them.
  await send(performance.now(), 'POST', `${POSTHOG_PATH}/e/`, batch(-1), '10.0.0.1');
  const quiet = summary(await fixedRate(PAGES, (_, due) => send(due, 'GET', PAGE)));
  const batches = EVENTS / PER_BATCH;
  const [busy, sent] = await Promise.all([
    fixedRate(PAGES, (_, due) => send(due, 'GET', PAGE)).then(summary),
    fixedRate(batches, (n, due) =>
      send(due, 'POST', `${POSTHOG_PATH}/e/`, batch(n), `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`),
    ).then(summary),
  ]);
  agent.destroy();
  await server.stop();
  const db = await openDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL });
  const [stored] = await db.query<{ count: number }>(
    `SELECT count(*)::integer AS count FROM analytics_events WHERE distinct_id LIKE $1`,
    [`bench-${run}-%`],
  );
  await db.query('DELETE FROM analytics_events WHERE distinct_id LIKE $1', [`bench-${run}-%`]);
  await db.close();
  const expected = batches * (SECONDS + 1) * PER_BATCH + PER_BATCH;
  console.log(`${PAGE} at ${PAGES}/s on ${database}, alone:            ${quiet.text}; ${quiet.failed} not 200`);
  console.log(`${PAGE} at ${PAGES}/s while ${EVENTS} events/s arrive: ${busy.text}; ${busy.failed} not 200`);
  console.log(`batches of ${PER_BATCH} events at ${batches}/s:             ${sent.text}; ${sent.failed} not 200`);
  console.log(
    `stored ${stored?.count} of ${expected} events; page p99 ${(busy.p99 / quiet.p99).toFixed(2)}× quiet ` +
      `(load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(', ')})`,
  );
  process.exitCode = stored?.count === expected && sent.failed === 0 ? 0 : 1;
} finally {
  agent.destroy();
  await server.stop();
  await server.remove();
}
