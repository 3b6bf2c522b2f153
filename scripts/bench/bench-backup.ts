// What a backup costs the visitors while it runs: `npm run bench:backup -- [--megabytes 1024]
// [--seconds 10]`. The budget: a page's p99 while `npm run backup` copies a large database at most
// twice its quiet p99. It fills an embedded database in a temporary folder (or, with DATABASE_URL,
// that PostgreSQL; its rows are removed afterwards and their space given back) with page views up
// to the size asked, starts the real server on it as `npm run serve` does (its environment and
// flags, on the build in dist/), loads a page and the readiness answer (which
// asks the database) with 8 clients each, both at once, quiet and then while the backup runs, and
// prints both p99s.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { serveCommand } from '#deploy/serve-command.ts';
import { openDatabase } from '#server/platform/db/database.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
if (!existsSync(path.join(ROOT, 'dist/server/main.js'))) {
  console.error('No build in dist/: run `npm run build` first.');
  process.exit(1);
}
/** The page loaded beside the readiness answer: one of the build's, of a real page's size. */
const PAGE = '/en/about';
const { values } = parseArgs({
  options: { megabytes: { type: 'string', default: '1024' }, seconds: { type: 'string', default: '10' } },
});
const TARGET_BYTES = Number(values.megabytes) * 1024 * 1024;
const QUIET_MS = Number(values.seconds) * 1000;
const CLIENTS = 8;
const BUDGET_RATIO = 2;
const ROWS_PER_STATEMENT = 50_000;
const databaseUrl = process.env.DATABASE_URL;
/** Statements of tens of thousands of rows take longer than a request's. */
const FILL_TIMEOUTS = { statementMs: 600_000 };
const SECRET = 'bench-backup-secret-of-at-least-32-characters';

const scratch = await mkdtemp(path.join(tmpdir(), 'bench-backup-'));
const dataDir = path.join(scratch, 'data');
const children: ChildProcess[] = [];
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** The size of the site's tables with their indexes (a shared PostgreSQL holds more than the site). */
const databaseBytes = async (db: Awaited<ReturnType<typeof openDatabase>>) =>
  (
    await db.query<{ bytes: number }>(
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind = 'r'`,
    )
  )[0]?.bytes ?? 0;

/** Page views, in large statements, until the database is as large as asked. */
async function fill(): Promise<number> {
  const db = await openDatabase({ dataDir, databaseUrl, timeouts: FILL_TIMEOUTS });
  try {
    const started = performance.now();
    let bytes = await databaseBytes(db);
    for (let batch = 0; bytes < TARGET_BYTES; batch++) {
      await db.query(
        `INSERT INTO analytics_events (uuid, event, distinct_id, path, language, occurred_at, referrer_host)
         SELECT 'bench-backup-' || $1::integer || '-' || g, '$pageview', 'v1.bench.' || (g % 5000),
                '/en/about?' || md5(g::text), 'en', now() - (g % 10000) * interval '1 minute', 'example.com'
         FROM generate_series(1, $2::integer) AS g`,
        [batch, ROWS_PER_STATEMENT],
      );
      bytes = await databaseBytes(db);
      process.stdout.write(`\r  filled ${(bytes / 1024 / 1024).toFixed(0)} MB`);
    }
    process.stdout.write(` in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    // As a database is on an ordinary day, not just written: otherwise autovacuum's first pass over
    // the new rows runs during the quiet figures.
    await db.query('VACUUM ANALYZE analytics_events');
    return bytes;
  } finally {
    await db.close();
  }
}

async function startServer(port: number, site: string): Promise<ChildProcess> {
  const serve = serveCommand(ROOT);
  const child = spawn(process.execPath, serve.args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...serve.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SITE_DIR: site,
      SERVER_SECRET: SECRET,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  for (;;) {
    if (child.exitCode !== null) throw new Error('The server ended at start');
    const ready = await fetch(`http://127.0.0.1:${port}/api/health/ready`).catch(() => null);
    if (ready?.ok) return child;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const p = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;

/** CLIENTS clients asking `target` one request after another until `until` resolves; the latencies. */
async function load(base: string, target: string, until: Promise<unknown>) {
  let done = false;
  void until.then(() => {
    done = true;
  });
  const latencies: number[] = [];
  let failed = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (!done) {
        const started = performance.now();
        const response = await fetch(`${base}${target}`, { headers: { 'Accept-Encoding': 'br' } }).catch(() => null);
        await response?.arrayBuffer();
        if (response?.ok) latencies.push(performance.now() - started);
        else failed++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { count: latencies.length, failed, p50: p(latencies, 0.5), p99: p(latencies, 0.99) };
}

const timer = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const line = (what: string, r: Awaited<ReturnType<typeof load>>) =>
  `${what}: ${r.count} answers, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms${r.failed ? `, ${r.failed} failed` : ''}`;

try {
  console.log(`Backup benchmark on ${databaseUrl ? 'PostgreSQL' : 'PGlite'}: filling to ${values.megabytes} MB`);
  const bytes = await fill();
  const port = await freePort();
  const server = await startServer(port, path.join(ROOT, 'dist'));
  const base = `http://127.0.0.1:${port}`;
  await load(base, PAGE, timer(2_000));

  // The same two loads at once as during the backup, so that the p99s differ by the backup alone.
  const quietEnd = timer(QUIET_MS);
  const [quietPage, quietReady] = await Promise.all([
    load(base, PAGE, quietEnd),
    load(base, '/api/health/ready', quietEnd),
  ]);

  const backupStarted = performance.now();
  const backup = new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/bin/backup.ts', path.join(scratch, 'backup')], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SERVER_SECRET: SECRET },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.once('exit', (code) => (code === 0 ? resolve(output.trim()) : reject(new Error(`backup failed (${code})`))));
  });
  const [duringPage, duringReady, said] = await Promise.all([
    load(base, PAGE, backup),
    load(base, '/api/health/ready', backup),
    backup,
  ]);
  const backupSeconds = (performance.now() - backupStarted) / 1000;
  server.kill('SIGTERM');

  const ratio = duringPage.p99 / quietPage.p99;
  console.log(`Database: ${(bytes / 1024 / 1024).toFixed(0)} MB; backup took ${backupSeconds.toFixed(1)} s`);
  console.log(`  ${said.split('\n')[0]}`);
  console.log(`  ${line('page, quiet', quietPage)}`);
  console.log(`  ${line('page, during the backup', duringPage)}`);
  console.log(`  ${line('readiness (asks the database), quiet', quietReady)}`);
  console.log(`  ${line('readiness, during the backup', duringReady)}`);
  console.log(
    `${ratio <= BUDGET_RATIO ? 'PASS' : 'FAIL'}: page p99 during the backup is ${ratio.toFixed(2)}× the quiet p99 (budget ${BUDGET_RATIO}×)`,
  );
  process.exitCode = ratio <= BUDGET_RATIO ? 0 : 1;
} finally {
  if (databaseUrl) {
    const db = await openDatabase({ dataDir, databaseUrl, timeouts: FILL_TIMEOUTS });
    await db.query(`DELETE FROM analytics_events WHERE uuid LIKE 'bench-backup-%'`);
    // The space back too: the next run measures the database's size to know when it is full.
    await db.query('VACUUM FULL analytics_events');
    await db.close();
  }
  for (const child of children) child.kill('SIGKILL');
  await rm(scratch, { recursive: true, force: true });
}
