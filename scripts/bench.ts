// `npm run bench`: Lighthouse (mobile preset) on six pages, the JS the home page needs before it is
// interactive, and the server's throughput on a prerendered page beside nginx serving the same
// file. Builds first when there is no build. Options: --runs N (Lighthouse runs per page, median
// reported; default 3), --only lighthouse|throughput, --pages /en/login,/th/register (instead of
// the six default pages), --consent granted (the visitor has accepted analytics; runs then keep
// the browser's storage, so its cache is warm too).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { ROOT } from '#server/platform/site-config.ts';
import { CHROME_ARGS, CHROME_PATH } from './chrome.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    only: { type: 'string' },
    pages: { type: 'string' },
    consent: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const PORT = 3210;
const NGINX_PORT = 3211;
const PAGES = args.pages?.split(',') ?? [
  '/en',
  '/en/about',
  '/en/privacy-policy',
  '/th',
  '/th/about',
  '/th/privacy-policy',
];
const CONSENT_GRANTED = args.consent === 'granted';
const CHROME_FLAGS = ['--headless=new', ...CHROME_ARGS];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

async function waitFor(url: string) {
  for (let i = 0; i < 100; i++) {
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
    stdio: 'ignore',
  });
  await waitFor(`http://127.0.0.1:${PORT}/api/health`);
  return server;
}

/**
 * The entry module, everything it imports statically, and the home page's chunk: the gzip files
 * the server sends (zopfli, see prerender.ts), and zlib level 9 of the same files for comparison.
 */
async function homeCriticalJs(): Promise<{ served: number; zlib: number }> {
  type Manifest = Record<string, { file: string; imports?: string[] }>;
  const manifest = JSON.parse(await readFile(path.join(ROOT, 'dist/client/.vite/manifest.json'), 'utf8')) as Manifest;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  visit('src/client/app/entry-client.tsx');
  visit('src/client/pages/home/HomePage.tsx');
  let served = 0;
  let zlib = 0;
  for (const key of seen) {
    const file = path.join(ROOT, 'dist/client', manifest[key]?.file ?? '');
    served += (await readFile(`${file}.gz`)).length;
    zlib += gzipSync(await readFile(file), { level: 9 }).length;
  }
  return { served, zlib };
}

interface PageResult {
  scores: Record<string, number>;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  jsKb: number;
  textsBeforePaint: number;
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

async function lighthouseRun(url: string, port: number): Promise<PageResult> {
  if (CONSENT_GRANTED) await grantConsent(port);
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    disableStorageReset: CONSENT_GRANTED,
  });
  if (!result) throw new Error(`no Lighthouse result for ${url}`);
  const { categories, audits } = result.lhr;
  const metric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
  const requests = (
    (audits['network-requests']?.details ?? { items: [] }) as unknown as {
      items: { url: string; resourceType: string; transferSize: number; networkRequestTime: number }[];
    }
  ).items;
  const fcp = metric('first-contentful-paint');
  return {
    scores: Object.fromEntries(Object.entries(categories).map(([id, c]) => [id, Math.round((c.score ?? 0) * 100)])),
    fcp,
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    jsKb: requests.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + r.transferSize, 0) / 1024,
    // Observed (unthrottled) request times; a translation file fetched before the first paint shows here.
    textsBeforePaint: requests.filter(
      (r) =>
        r.url.includes('/locales/') &&
        r.networkRequestTime < (audits['first-contentful-paint'] ? metric('first-contentful-paint') : 0),
    ).length,
  };
}

async function benchLighthouse() {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
  const rows: string[] = [];
  try {
    for (const page of PAGES) {
      const runs: PageResult[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await lighthouseRun(`http://127.0.0.1:${PORT}${page}`, chrome.port));
      const m = (pick: (r: PageResult) => number) => median(runs.map(pick));
      const score = (id: string) => m((r) => r.scores[id] ?? 0);
      rows.push(
        [
          page.padEnd(20),
          String(score('performance')).padStart(4),
          String(score('accessibility')).padStart(5),
          String(score('best-practices')).padStart(5),
          String(score('seo')).padStart(4),
          `${(m((r) => r.fcp) / 1000).toFixed(2)} s`.padStart(8),
          `${(m((r) => r.lcp) / 1000).toFixed(2)} s`.padStart(8),
          `${Math.round(m((r) => r.tbt))} ms`.padStart(7),
          m((r) => r.cls)
            .toFixed(3)
            .padStart(6),
          `${m((r) => r.jsKb).toFixed(1)} KB`.padStart(9),
          String(Math.max(...runs.map((r) => r.textsBeforePaint))).padStart(6),
        ].join(' '),
      );
    }
  } finally {
    await chrome.kill();
  }
  const consent = CONSENT_GRANTED ? 'consent granted' : 'consent not yet asked';
  console.log(`\nLighthouse, mobile preset, median of ${RUNS} run(s) per page, ${consent}`);
  console.log('page                 perf  a11y  best  seo      FCP      LCP     TBT    CLS  JS (wire)  texts<FCP');
  for (const row of rows) console.log(row);
  const js = await homeCriticalJs();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`\nJS the home page needs to hydrate: ${kb(js.served)} gzip as served (${kb(js.zlib)} with zlib -9)`);
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
const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-data-'));
const server = await startServer(dataDir);
try {
  if (args.only !== 'throughput') await benchLighthouse();
  if (args.only !== 'lighthouse') await benchThroughput();
} finally {
  server.kill();
  await rm(dataDir, { recursive: true, force: true });
}
