// Sign-in over HTTP on this machine, hashing included (argon2id at the server's parameters):
// `npm run bench:sign-in`. The server runs in a process of its own, as in production, serving the
// build in dist/ (run `npm run build` first) and the API, on PGlite in a temporary folder or on the
// PostgreSQL of DATABASE_URL (its accounts are removed afterwards; its rate limit windows lapse
// within the hour). It measures:
// - sequential sign-ins: successful, wrong password, unknown address (budget: median within 300 ms);
// - page latency for --seconds (default 10) each: alone; with honest sign-ins coming one at a time
//   from browsers that signed in to the account before (the known-device cookie) and from new ones;
//   and with as many honest sign-ins during a flood of --flood parallel sign-ins (default 256), each
//   from an address of its own for an address no account has, so that every one of them costs a
//   hash. The budget (issue 33): during the flood, the page's p99 at most twice what it is without
//   one, and every honest sign-in answered within a second. The two phases with honest sign-ins
//   differ by the flood alone; the ratio over pages alone is printed too.
//   The flood is sent from a thread of its own (sign-in-flood.ts) and the pages are timed in
//   another (page-loop.ts), so that neither adds its event loop's delays to the honest sign-ins.
//   For each page phase it also prints the server's own figures: its event loop's delay and how
//   long it took to answer the page once read, to tell the server's delays from the host's.
// --unbounded hashes every sign-in at once, as the server did before its hashing queue.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { storageEntry } from '#common/storage.ts';
import { serveCommand } from '#deploy/serve-command.ts';
import { createApp } from '#server/app.ts';
import { createPasswords, DEFAULT_HASHING } from '#server/features/accounts/index.ts';
import { issueFpid } from '#server/features/visitor/index.ts';
import { securityHeaders } from '#server/http/security-headers.ts';
import { openDatabase } from '#server/platform/db/database.ts';
import { lowerPoolPriority } from '#server/platform/pool-priority.ts';
import { ROOT } from '#server/platform/site-config.ts';
import { loadStaticFiles } from '#server/site/build-files.ts';
import { createListener } from '#server/site/listener.ts';
import { type PageTimes, timePages } from './page-loop.ts';
import { flood, sendSignIn } from './sign-in-flood.ts';

const { values: args } = parseArgs({
  options: {
    serve: { type: 'string' },
    flood: { type: 'string', default: '256' },
    seconds: { type: 'string', default: '10' },
    unbounded: { type: 'boolean', default: false },
  },
});

/** Accounts for the sequential sign-ins; each signs in as often as its rate limit allows in one window. */
const ACCOUNTS = 10;
const ROUNDS = 10;
/** Accounts that sign in honestly in each of two phases, for each kind of browser, each fewer times than its limit. */
const HONEST_ACCOUNTS = 10;
const HONEST_PER_ACCOUNT = 8;
const PASSWORD = 'correct horse battery staple';
const PAGE = '/en/about';
const KNOWN_DEVICE = storageEntry('knownDevice').name;
const PAGE_WORKERS = 8;
const secret = Buffer.alloc(32, 3);

interface Ready {
  port: number;
  emails: string[];
  honest: string[];
}

/**
 * The server's own view of a phase: its event loop's delay (which holds the time its thread waited
 * for a processor), and how long it took to answer the page once it had read the request.
 */
interface ServerFigures {
  loopP99: number;
  loopMax: number;
  answeredP99: number;
}

const percentile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

/** The server process: the product's listener (built site and API) on its own port. */
async function serve(dataDir: string) {
  const db = await openDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL });
  const run = `${Date.now()}`;
  const hash = await createPasswords().hash(PASSWORD);
  const all = Array.from({ length: ACCOUNTS + 4 * HONEST_ACCOUNTS }, (_, n) => `bench-${run}-${n}@example.com`);
  for (const [n, email] of all.entries()) {
    await db.query(
      `INSERT INTO accounts (name, email, phone, password_hash, language, verified_at)
       VALUES ('Bench', $1, $2, $3, 'en', now())`,
      [email, `+4420${run.slice(-6)}${String(n).padStart(2, '0')}`, hash],
    );
  }
  const inline = JSON.parse(await readFile(path.join(ROOT, 'dist/inline-hashes.json'), 'utf8'));
  const security = securityHeaders();
  const files = await loadStaticFiles(path.join(ROOT, 'dist/client'), inline);
  // As the server's start does (src/server/main.ts).
  await lowerPoolPriority();
  // One trusted proxy, so that each request can come from an address of its own and the per-client
  // limit, which a benchmark from one machine would reach, stays out of the measurement.
  const app = createApp({
    security,
    db,
    secret,
    trustedProxies: 1,
    settings: args.unbounded ? { hashingLimits: { concurrency: 1_000_000, queue: 1_000_000, refusalHoldMs: 0 } } : {},
  });
  const server = createServer(createListener(app, files, security));
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  let answered: number[] = [];
  server.prependListener('request', (request, response) => {
    if (request.url !== PAGE) return;
    const start = performance.now();
    response.once('finish', () => answered.push(performance.now() - start));
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.send?.({ port, emails: all.slice(0, ACCOUNTS), honest: all.slice(ACCOUNTS) } satisfies Ready);
  });
  process.on('message', async (message) => {
    // The figures since the last time they were asked for.
    if (message === 'figures') {
      const figures: ServerFigures = {
        loopP99: loopDelay.percentile(99) / 1e6,
        loopMax: loopDelay.max / 1e6,
        answeredP99: percentile(answered, 0.99),
      };
      loopDelay.reset();
      answered = [];
      process.send?.(figures);
      return;
    }
    server.closeAllConnections();
    server.close();
    await db.query('DELETE FROM accounts WHERE email = ANY($1)', [all]);
    await db.close();
    process.exit(0);
  });
}

if (args.serve) {
  await serve(args.serve);
} else {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-sign-in-'));
  // Started as `npm run serve` starts the server: its environment and Node's flags (decision 230).
  const serve = serveCommand(ROOT);
  const child: ChildProcess = fork(
    new URL(import.meta.url).pathname,
    ['--serve', dataDir, ...(args.unbounded ? ['--unbounded'] : [])],
    { execArgv: serve.args.filter((arg) => arg.startsWith('--')), env: { ...process.env, ...serve.env } },
  );
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (message) => resolve(message as Ready));
      child.once('exit', (code) => reject(new Error(`The server exited (${code})`)));
    });
    const serverFigures = () =>
      new Promise<ServerFigures>((resolve) => {
        child.once('message', (message) => resolve(message as ServerFigures));
        child.send('figures');
      });
    await measure(ready, serverFigures);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send('stop');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function measure({ port, emails, honest }: Ready, serverFigures: () => Promise<ServerFigures>) {
  const base = `http://127.0.0.1:${port}`;
  const duration = Number(args.seconds);
  const cookie = `_fpid=${issueFpid(secret, 'bench')}`;
  let requests = 0;
  // Client addresses (a /16 picked at random) and made-up email addresses of this run's own, so that
  // the limits that earlier runs counted on the same PostgreSQL stay out of this one.
  const block = 1 + Math.floor(Math.random() * 254);
  const nobody = `nobody-${Date.now()}`;

  /** One sign-in from an address of its own: its status and how long it took. */
  async function signIn(email: string, password: string, device = '') {
    requests += 1;
    const start = performance.now();
    const address = `10.${block}.${(requests >> 8) & 255}.${requests & 255}`;
    const response = await sendSignIn(base, address, device ? `${cookie}; ${device}` : cookie, email, password);
    await response.arrayBuffer();
    const known = response.headers.getSetCookie().find((line) => line.startsWith(`${KNOWN_DEVICE}=`));
    return { status: response.status, ms: performance.now() - start, device: known?.split(';')[0] ?? '' };
  }

  async function expectSignIn(email: string, password: string) {
    const { status, ms } = await signIn(email, password);
    const expected = password === PASSWORD && !email.startsWith('nobody') ? 200 : 401;
    if (status !== expected) throw new Error(`Sign-in answered ${status}, expected ${expected}`);
    return ms;
  }

  const pages = () => timePages({ url: `${base}${PAGE}`, loops: PAGE_WORKERS, seconds: duration });

  const stats = (label: string, times: number[]) => {
    const at = (q: number) => percentile(times, q).toFixed(1);
    console.log(`${label}: n=${times.length} median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms`);
  };
  /** Prints a phase's pages, and gives their p99. */
  const pageStats = (label: string, { times, seconds }: PageTimes) => {
    const at = (q: number) => percentile(times, q).toFixed(1);
    console.log(
      `${label}: ${(times.length / seconds).toFixed(0)} req/s, median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`,
    );
    return percentile(times, 0.99);
  };
  const seconds = (n: number) => new Promise((resolve) => setTimeout(resolve, n * 1000));

  await expectSignIn(`${nobody}-warm-up@example.com`, 'x');
  const success: number[] = [];
  const wrong: number[] = [];
  const unknown: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const email of emails.slice(0, ACCOUNTS / 2)) success.push(await expectSignIn(email, PASSWORD));
    for (const email of emails.slice(ACCOUNTS / 2)) wrong.push(await expectSignIn(email, 'not the password'));
    unknown.push(await expectSignIn(`${nobody}-${round}@example.com`, PASSWORD));
  }
  const { memoryCost, timeCost, parallelism } = DEFAULT_HASHING;
  const store = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(`argon2id m=${memoryCost} KiB, t=${timeCost}, p=${parallelism}; ${store}; over HTTP to a server process`);
  console.log(args.unbounded ? 'hashing unbounded (as before the hashing queue)' : 'hashing queue: the server default');
  stats('successful sign-in', success);
  stats('wrong password', wrong);
  stats('unknown address', unknown);

  const serverStats = async () => {
    const { loopP99, loopMax, answeredP99 } = await serverFigures();
    console.log(
      `  in the server: event loop delay p99 ${loopP99.toFixed(1)} ms (max ${loopMax.toFixed(1)}), page answered p99 ${answeredP99.toFixed(2)} ms once read`,
    );
  };
  await serverFigures();
  const alone = pageStats(`page ${PAGE} alone (${PAGE_WORKERS} at a time)`, await pages());
  await serverStats();

  const connections = Number(args.flood);
  const counts = (map: Map<number, number>) =>
    [...map]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${n}× ${status}`)
      .join(', ');
  // Honest sign-ins keep coming, one at a time with a pause, from browsers that signed in to the
  // account before (their known-device cookie, taken now) and from browsers new to it: first without
  // a flood, then during one, each phase with accounts of its own (each signs in fewer times than its
  // limit). So the two phases differ by the flood alone.
  const devices = new Map<string, string>();
  const phaseAccounts = (phase: number) => {
    const from = 2 * phase * HONEST_ACCOUNTS;
    return {
      known: honest.slice(from, from + HONEST_ACCOUNTS),
      new: honest.slice(from + HONEST_ACCOUNTS, from + 2 * HONEST_ACCOUNTS),
    };
  };
  for (const email of [...phaseAccounts(0).known, ...phaseAccounts(1).known]) {
    devices.set(email, (await signIn(email, PASSWORD)).device);
  }
  /** Pages, and honest sign-ins meanwhile, for `duration` seconds, beside what `more` starts (the flood, or nothing). */
  const withHonestSignIns = async <T>(phase: number, label: string, more: () => Promise<T>) => {
    const accounts = phaseAccounts(phase);
    let running = true;
    const honestSignIns = async (kind: 'known' | 'new') => {
      const times: number[] = [];
      const statuses = new Map<number, number>();
      for (let i = 0; running && i < HONEST_ACCOUNTS * HONEST_PER_ACCOUNT; i++) {
        const email = accounts[kind][i % HONEST_ACCOUNTS] as string;
        const { status, ms } = await signIn(email, PASSWORD, kind === 'known' ? devices.get(email) : '');
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 200) times.push(ms);
        await seconds(0.1);
      }
      return { times, statuses };
    };
    await serverFigures();
    void seconds(duration).then(() => {
      running = false;
    });
    const [during, known, fresh, alongside] = await Promise.all([
      pages(),
      honestSignIns('known'),
      honestSignIns('new'),
      more(),
    ]);
    const p99 = pageStats(`page ${PAGE} ${label}`, during);
    await serverStats();
    for (const [answers, browsers] of [
      [known, 'from browsers that signed in before'],
      [fresh, 'from browsers new to the account'],
    ] as const) {
      stats(`  honest sign-ins ${browsers}, answered 200 (of ${counts(answers.statuses)})`, answers.times);
    }
    return { p99, alongside };
  };

  const honestOnly = await withHonestSignIns(0, 'with honest sign-ins', async () => undefined);
  const flooded = await withHonestSignIns(
    1,
    `with honest sign-ins, during a flood of ${connections} parallel sign-ins`,
    () => flood({ base, cookie, block, connections, seconds: duration }),
  );
  stats(`  flood sign-ins (${counts(new Map(flooded.alongside.statuses))})`, flooded.alongside.times);
  console.log(
    `page p99 during the flood: ${(flooded.p99 / honestOnly.p99).toFixed(2)}× the phase without it (budget 2×), ${(flooded.p99 / alone).toFixed(2)}× pages alone`,
  );
}
