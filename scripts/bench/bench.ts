// `npm run bench`: Lighthouse (mobile preset) on the site's pages, the JS each kind of page needs
// to hydrate, and the server's throughput on a prerendered page beside nginx serving the same file.
// Builds first when there is no build.
//
// Which pages: six by default (home, about and privacy policy in English and Thai); --all for every
// page of the sitemap in every language (the noindex steps of a visitor's journey, such as
// validation, only by name: their SEO score is then not held to 100); --pages login,register (page ids as in src/common/routes.ts,
// or paths such as /th/login) and --langs en,th to pick. Other options: --runs N (Lighthouse runs
// per page, default 3), --only lighthouse|throughput, --consent granted (the visitor has accepted
// analytics; runs then keep the browser's storage, so its cache is warm too), --edited (the pages
// as the server renders them after an admin's edits in the console: scripts/bench/edited-site.ts).
// Runs go one at a time: side by side they inflate each other's figures (decision 052).
//
// Per page it prints the median and the worst run of every figure; then, for each budget, the
// pages whose worst run breaks it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { isIndexed, sitemapPaths } from '#common/head.ts';
import { isLanguage, LANGUAGES, type Language } from '#common/languages.ts';
import { matchPage, PAGE_IDS, type PageId, pagePath } from '#common/routes.ts';
import { ROOT } from '#server/platform/site-config.ts';
import { type Manifest, pageModuleKey, startModules } from '#server/site/app-modules.ts';
import {
  BUDGETS,
  budgetLines,
  budgetVerdicts,
  CATEGORIES,
  type Category,
  duration,
  median,
  type PageSummary,
  pageTable,
  type RunResult,
  summarizePage,
} from './bench-report.ts';
import { CHROME_ARGS, CHROME_PATH } from './chrome.ts';
import { editSite, seedAdmin } from './edited-site.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    only: { type: 'string' },
    all: { type: 'boolean', default: false },
    pages: { type: 'string' },
    langs: { type: 'string' },
    consent: { type: 'string' },
    edited: { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs takes a whole number of at least 1');
/** Free ports, so that benchmarks of several working copies can run side by side. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
const PORT = await freePort();
const NGINX_PORT = await freePort();
const DEFAULT_PAGES = ['/en', '/en/about', '/en/privacy-policy', '/th', '/th/about', '/th/privacy-policy'];
const CONSENT_GRANTED = args.consent === 'granted';
const CHROME_FLAGS = ['--headless=new', ...CHROME_ARGS];

/** The paths to measure, from --all, --pages and --langs. */
function selectedPaths(): string[] {
  if (!args.all && !args.pages && !args.langs) return DEFAULT_PAGES;
  const languages = (args.langs?.split(',') ?? [...LANGUAGES]).map((language) => {
    if (!isLanguage(language)) throw new Error(`--langs: ${language} is not one of ${LANGUAGES.join(', ')}`);
    return language;
  });
  if (!args.pages) return sitemapPaths(languages).map((entry) => entry.path);
  const paths: string[] = [];
  for (const item of args.pages.split(',')) {
    if (item.startsWith('/')) {
      if (!matchPage(item)) throw new Error(`--pages: ${item} is not a page of the site`);
      paths.push(item);
    } else if ((PAGE_IDS as string[]).includes(item)) {
      for (const language of languages) paths.push(pagePath(language as Language, item as PageId));
    } else {
      throw new Error(`--pages: ${item} is neither a path nor one of ${PAGE_IDS.join(', ')}`);
    }
  }
  return [...new Set(paths)];
}
const PATHS = selectedPaths();

async function waitFor(url: string) {
  // The embedded database can take half a minute to start on a busy machine.
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

async function startServer(dataDir: string) {
  const server = spawn(process.execPath, ['src/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(`http://127.0.0.1:${PORT}/api/health`);
  return server;
}

/**
 * The JS each kind of page needs to hydrate (startModules: the entry, React DOM, the page's chunk
 * and their static imports), as the gzip files the server sends (zopfli, see prerender.ts) and as
 * zlib level 9 of the same files.
 */
async function hydrationJs(): Promise<{ page: PageId; served: number; zlib: number }[]> {
  const manifest = JSON.parse(await readFile(path.join(ROOT, 'dist/client/.vite/manifest.json'), 'utf8')) as Manifest;
  const sizes: { page: PageId; served: number; zlib: number }[] = [];
  for (const page of PAGE_IDS) {
    const seen = startModules(manifest, pageModuleKey(page));
    let served = 0;
    let zlib = 0;
    for (const key of seen) {
      const file = path.join(ROOT, 'dist/client', manifest[key]?.file ?? '');
      served += (await readFile(`${file}.gz`)).length;
      zlib += gzipSync(await readFile(file), { level: 9 }).length;
    }
    sizes.push({ page, served, zlib });
  }
  return sizes;
}

/** Puts the consent cookie into the browser's jar over the DevTools protocol. */
async function grantConsent(port: number) {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve) => socket.addEventListener('open', resolve, { once: true }));
  const answered = new Promise((resolve) => socket.addEventListener('message', resolve, { once: true }));
  socket.send(
    JSON.stringify({
      id: 1,
      method: 'Storage.setCookies',
      params: { cookies: [{ name: 'consent', value: 'granted', url: `http://127.0.0.1:${PORT}/` }] },
    }),
  );
  await answered;
  socket.close();
}

interface LayoutShiftItem {
  node?: { selector?: string; nodeLabel?: string };
  score: number;
}

interface LongTaskItem {
  url?: string;
  duration: number;
  startTime: number;
}

/** The first element named in an audit's details (Lighthouse nests them in lists and tables). */
function nodeIn(details: unknown): string | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const item = details as { type?: string; selector?: string; nodeLabel?: string };
  if (item.type === 'node') return item.selector ?? item.nodeLabel;
  for (const value of Object.values(details)) {
    const found = nodeIn(value);
    if (found) return found;
  }
  return undefined;
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize: number;
  networkRequestTime: number;
}

async function lighthouseRun(url: string, port: number): Promise<RunResult> {
  if (CONSENT_GRANTED) await grantConsent(port);
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    disableStorageReset: CONSENT_GRANTED,
  });
  if (!result) throw new Error(`no Lighthouse result for ${url}`);
  if (result.lhr.runtimeError) throw new Error(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
  const { categories, audits } = result.lhr;
  const metric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
  const network = audits['network-requests']?.details as unknown as
    | { items: NetworkItem[]; debugData?: { networkStartTimeTs?: number } }
    | undefined;
  const observed = ((audits.metrics?.details as unknown as { items?: Record<string, number>[] } | undefined)?.items ??
    [])[0];
  const requests = network?.items ?? [];
  const shifts =
    (audits['layout-shifts']?.details as unknown as { items?: LayoutShiftItem[] } | undefined)?.items ?? [];
  // Observed (unthrottled) times on the trace's clock, in microseconds: a request that starts
  // before a paint the browser reported is one the simulation counts as needed for that paint.
  const startTs = (item: NetworkItem) => (network?.debugData?.networkStartTimeTs ?? 0) + item.networkRequestTime * 1000;
  const before = (items: NetworkItem[], ts: number | undefined) =>
    ts === undefined ? items.length : items.filter((item) => startTs(item) < ts).length;
  const tasks = (audits['long-tasks']?.details as unknown as { items?: LongTaskItem[] } | undefined)?.items ?? [];
  const scripts = requests.filter((r) => r.resourceType === 'Script');
  const msAfterStart = (ts: number | undefined) =>
    ts === undefined ? '?' : Math.round((ts - (network?.debugData?.networkStartTimeTs ?? 0)) / 1000);
  const firstScript = scripts.length > 0 ? Math.min(...scripts.map((r) => r.networkRequestTime)) : undefined;
  const texts = requests.filter((r) => r.url.includes('/locales/'));
  return {
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((categories[id]?.score ?? 0) * 100)])) as Record<
      Category,
      number
    >,
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    shifted: shifts.map(
      (item) => `${item.node?.selector ?? item.node?.nodeLabel ?? 'unknown'} ${item.score.toFixed(3)}`,
    ),
    longTasks: tasks.map(
      (task) =>
        `${task.url ? task.url.replace(/^.*\//, '') : 'no script'} ${Math.round(task.duration)} ms at ${Math.round(task.startTime)} ms`,
    ),
    jsBytes: scripts.reduce((sum, r) => sum + r.transferSize, 0),
    htmlBytes: requests.find((r) => r.resourceType === 'Document')?.transferSize ?? Number.NaN,
    scriptsBeforeFcp: before(scripts, observed?.observedFirstContentfulPaintTs),
    scriptsBeforeLcp: before(scripts, observed?.observedLargestContentfulPaintTs),
    textsBeforeFcp: before(texts, observed?.observedFirstContentfulPaintTs),
    largestPaint:
      `${nodeIn(audits['lcp-breakdown-insight']?.details) ?? 'unknown element'} at ${msAfterStart(observed?.observedLargestContentfulPaintTs)} ms` +
      ` (first paint ${msAfterStart(observed?.observedFirstContentfulPaintTs)} ms, first script ${firstScript === undefined ? '?' : Math.round(firstScript)} ms)`,
  };
}

/**
 * The machine's CPU time so far by kind (Linux's /proc/stat, in ticks), or null elsewhere. On a
 * virtual machine, "steal" is time the host gave to other guests: a run during which it was high
 * measured the neighbours as much as the page, and the progress line says so.
 */
function cpuTicks(): number[] | null {
  try {
    return readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1, 9).map(Number) ?? null;
  } catch {
    return null;
  }
}

function stealShare(before: number[] | null, after: number[] | null): number | null {
  if (!before || !after) return null;
  const spent = after.map((ticks, kind) => ticks - (before[kind] ?? 0));
  const total = spent.reduce((sum, ticks) => sum + ticks, 0);
  return total > 0 ? (spent[7] ?? 0) / total : null;
}

/**
 * Runs every page RUNS times: each run of a page is a fresh load with Lighthouse's storage reset
 * (unless consent is granted), one run at a time in one browser.
 */
async function benchLighthouse() {
  const started = Date.now();
  const total = PATHS.length * RUNS;
  let done = 0;
  const results = new Map<string, RunResult[]>(PATHS.map((page) => [page, []]));
  let worstSteal = { share: 0, at: '' };
  const progress = (page: string, run: number, result: RunResult, steal: number | null) => {
    done += 1;
    const elapsed = Date.now() - started;
    const left = done < total ? `, about ${duration((elapsed / done) * (total - done))} left` : '';
    process.stderr.write(
      `[${String(done).padStart(String(total).length)}/${total}] ${page} run ${run}/${RUNS}: ` +
        `FCP ${(result.fcp / 1000).toFixed(2)} s, LCP ${(result.lcp / 1000).toFixed(2)} s, ` +
        `TBT ${Math.round(result.tbt)} ms, perf ${result.scores.performance}` +
        (result.tbt > BUDGETS.tbt ? `, long tasks: ${result.longTasks.join('; ')}` : '') +
        (result.scriptsBeforeLcp > 0
          ? `, ${result.scriptsBeforeLcp} script(s) before the largest paint: ${result.largestPaint}`
          : '') +
        (result.cls > 0 ? `, CLS ${result.cls.toFixed(3)} (moved: ${result.shifted.join(', ')})` : '') +
        (steal === null ? ' ' : `, host steal ${(steal * 100).toFixed(1)}% `) +
        `(${duration(elapsed)} so far${left})\n`,
    );
  };
  // A run that Lighthouse could not finish (the page did not paint within its wait, the browser
  // lost the page) is said and tried again, up to three times; it is not a figure of the page.
  const measure = async (page: string, port: number): Promise<RunResult> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await lighthouseRun(`http://127.0.0.1:${PORT}${page}`, port);
      } catch (error) {
        process.stderr.write(`${page}: Lighthouse failed (${(error as Error).message}), attempt ${attempt} of 3\n`);
        if (attempt === 3) throw error;
      }
    }
  };
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
  try {
    for (const page of PATHS) {
      for (let run = 1; run <= RUNS; run++) {
        const before = cpuTicks();
        const result = await measure(page, chrome.port);
        const steal = stealShare(before, cpuTicks());
        if (steal !== null && steal > worstSteal.share) worstSteal = { share: steal, at: `${page} run ${run}` };
        results.get(page)?.push(result);
        progress(page, run, result, steal);
      }
    }
  } finally {
    chrome.kill();
  }

  const pages: PageSummary[] = PATHS.map((page) => {
    const matched = matchPage(page);
    return summarizePage(page, results.get(page) ?? [], matched ? isIndexed(matched.page) : true);
  });
  const consent = CONSENT_GRANTED ? 'consent granted' : 'consent not yet asked';
  console.log(
    `\nLighthouse 13, mobile preset, ${RUNS} run(s) per page, ${consent}.` +
      '\nEach figure is "median worst" (scores: "median lowest"). JS KB: all script on the wire during the run, median. HTML KB: the page, headers included, worst run.' +
      '\nearly: most scripts requested before the observed largest paint, and translation files before the first paint, in any run.',
  );
  for (const line of pageTable(pages)) console.log(line);

  console.log(`\nBudgets, held by the worst of ${RUNS} run(s) of each of ${pages.length} page(s):`);
  for (const line of budgetLines(pages)) console.log(line);
  const broken = budgetVerdicts(pages).filter((verdict) => verdict.over.length > 0).length;
  console.log(broken === 0 ? '  every page within every budget' : `  ${broken} budget(s) broken`);
  const all = pages.flatMap((page) => results.get(page.page) ?? []);
  console.log(
    `  all runs: median FCP ${(median(all.map((r) => r.fcp)) / 1000).toFixed(2)} s, LCP ${(median(all.map((r) => r.lcp)) / 1000).toFixed(2)} s, TBT ${Math.round(median(all.map((r) => r.tbt)))} ms` +
      ` (budgets ${BUDGETS.fcp / 1000} s, ${BUDGETS.lcp / 1000} s, ${BUDGETS.tbt} ms)`,
  );

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log('\nJS each page needs to hydrate (entry and page chunk with their static imports), gzip:');
  for (const size of await hydrationJs()) {
    console.log(
      `  ${size.page.padEnd(16)} ${kb(size.served).padStart(9)} as served  ${kb(size.zlib).padStart(9)} zlib -9`,
    );
  }
  console.log(`\nLighthouse took ${duration(Date.now() - started)} for ${total} run(s).`);
  if (worstSteal.at) {
    console.log(
      `The host took up to ${(worstSteal.share * 100).toFixed(1)}% of this machine's CPU time during a run (${worstSteal.at}).`,
    );
  }
}

function wrk(url: string): number {
  const run = spawnSync('wrk', ['-t2', '-c64', '-d10s', '-H', 'Accept-Encoding: gzip', url], { encoding: 'utf8' });
  const match = run.stdout.match(/Requests\/sec:\s+([\d.]+)/);
  if (!match) throw new Error(`wrk failed: ${run.stderr || run.stdout}`);
  return Number(match[1]);
}

async function benchThroughput() {
  const prefix = await mkdtemp(path.join(tmpdir(), 'bench-nginx-'));
  const config = path.join(prefix, 'nginx.conf');
  await writeFile(
    config,
    `worker_processes auto;
error_log ${prefix}/error.log;
pid ${prefix}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  include /etc/nginx/mime.types;
  gzip_static on;
  client_body_temp_path ${prefix}/body;
  server {
    listen 127.0.0.1:${NGINX_PORT};
    root ${path.join(ROOT, 'dist/client')};
    location / { try_files $uri $uri/index.html =404; }
  }
}
`,
  );
  const nginx = spawn('nginx', ['-c', config, '-p', prefix, '-g', 'daemon off;'], { stdio: 'ignore' });
  try {
    await waitFor(`http://127.0.0.1:${NGINX_PORT}/en/about`);
    const page = '/en/about';
    // Alternate the two so that the machine's noise falls on both alike.
    const node: number[] = [];
    const ng: number[] = [];
    for (let i = 0; i < 3; i++) {
      node.push(wrk(`http://127.0.0.1:${PORT}${page}`));
      ng.push(wrk(`http://127.0.0.1:${NGINX_PORT}${page}`));
    }
    const ours = median(node);
    const theirs = median(ng);
    console.log(`\nThroughput of ${page} (gzip, wrk -t2 -c64 -d10s, median of 3 alternating runs)`);
    console.log(
      `  this server: ${Math.round(ours)} req/s   nginx: ${Math.round(theirs)} req/s   ratio: ${(ours / theirs).toFixed(2)}`,
    );
  } finally {
    nginx.kill();
    await rm(prefix, { recursive: true, force: true });
  }
}

if (!existsSync(path.join(ROOT, 'dist/inline-hashes.json'))) {
  spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
const benchStarted = Date.now();
const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-data-'));
const session = args.edited ? await seedAdmin(dataDir) : undefined;
const server = await startServer(dataDir);
try {
  if (session) console.log(await editSite(`http://127.0.0.1:${PORT}`, session));
  if (args.only !== 'throughput') await benchLighthouse();
  if (args.only !== 'lighthouse') await benchThroughput();
  console.log(`\nThe whole benchmark took ${duration(Date.now() - benchStarted)}.`);
} finally {
  // The data folder goes once the server has stopped writing to it (PGlite closes on SIGTERM).
  if (server.exitCode === null && server.signalCode === null) {
    const stopped = new Promise((resolve) => server.once('exit', resolve));
    server.kill();
    await stopped;
  }
  await rm(dataDir, { recursive: true, force: true });
}
