import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { CONTACT_API } from '#common/contact-api.ts';
import { storageEntry } from '#common/storage.ts';
import { staffCommandToken } from '#server/features/staff/index.ts';
import { POOL_NICENESS } from '#server/platform/pool-priority.ts';
import { giveSecondFactor } from '#tests/support/second-factor.ts';
import { threadPriorities } from '#tests/support/thread-priorities.ts';
import { type Answer, decoded, json, request, setCookie } from './http.ts';
import {
  type Instance,
  instanceRunning,
  type Nginx,
  type Postgres,
  ROOT,
  sleep,
  startInstance,
  waitFor,
} from './processes.ts';

/** What every check gets: the running cluster, and how to restart an instance. */
export interface Cluster {
  postgres: Postgres;
  instances: Instance[];
  nginx: Nginx;
  folder: string;
  instanceEnv: Record<string, string>;
  /** CONTACT_RATE_LIMIT of the instances. */
  contactLimit: number;
}

/** A failed expectation; the check stops there and reports the message. */
export class CheckFailure extends Error {}

export function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message);
}

/** Lines a check prints under its result; `finding` marks a server defect it ran into. */
export interface Report {
  note(line: string): void;
  finding(line: string): void;
}

export const SESSION_COOKIE = storageEntry('session').name;
const FPID_COOKIE = '_fpid';

// ---------------------------------------------------------------------------------------------
// The visitor's side of the API, spoken over HTTP only.

export const origin = (port: number) => `http://127.0.0.1:${port}`;

function fingerprintRecord() {
  return JSON.stringify({
    visitorId: randomBytes(16).toString('hex'),
    components: { cluster: 'test' },
    userAgent: 'test:cluster',
    timestamp: Date.now(),
  });
}

const postFingerprint = (port: number, headers: Record<string, string> = {}, localAddress?: string) =>
  request(port, '/api/fingerprint', { method: 'POST', body: fingerprintRecord(), headers, localAddress });

async function mintFpid(port: number): Promise<string> {
  const answer = await postFingerprint(port);
  expect(answer.status === 200, `POST /api/fingerprint answered ${answer.status}: ${decoded(answer)}`);
  return json<{ fpid: string }>(answer).fpid;
}

/**
 * A contact message with nothing in it. The client's hit on the shared contact limit is counted (a
 * write to the database) before the message is read, so it is answered 400 within the limit and 429
 * past it.
 */
const postEmptyContact = (port: number, fpid: string, headers: Record<string, string> = {}, localAddress?: string) =>
  request(port, CONTACT_API.messages, {
    method: 'POST',
    body: '{}',
    headers: { Origin: origin(port), Cookie: `${FPID_COOKIE}=${fpid}`, ...headers },
    localAddress,
  });

/** From a publish's start until every instance and nginx serve the new page (issue 34's budget). */
export const BUDGET_MS = 2_000;

export type Reader = { name: string; port: number };

/**
 * Polls each reader until `served(port)`; answers the milliseconds since `since` for each (null past
 * the budget and a margin).
 */
/** Every instance but the first, where changes are made, and nginx. */
export const readersOf = (cluster: Cluster): Reader[] => [
  ...cluster.instances.slice(1).map((instance) => ({ name: `instance ${instance.index}`, port: instance.port })),
  { name: 'nginx', port: cluster.nginx.port },
];

export function servedWithin(readers: Reader[], served: (port: number) => Promise<boolean>, since: number) {
  return Promise.all(
    readers.map(async ({ name, port }) => {
      while (performance.now() - since < BUDGET_MS + 3_000) {
        if (await served(port)) return { name, ms: performance.now() - since };
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return { name, ms: null };
    }),
  );
}

export const timesLine = (times: { name: string; ms: number | null }[]) =>
  times.map(({ name, ms }) => `${name} ${ms === null ? 'never' : `${Math.round(ms)} ms`}`).join(', ');
export const withinBudget = (times: { ms: number | null }[]) => times.every(({ ms }) => ms !== null && ms <= BUDGET_MS);

/** A state-changing API call as the site's own pages make it. */
export function apiPost(
  port: number,
  target: string,
  body: unknown,
  cookies: Record<string, string>,
  method: 'POST' | 'PUT' | 'DELETE' = 'POST',
  timeoutMs?: number,
) {
  return request(port, target, {
    method,
    timeoutMs,
    body: JSON.stringify(body),
    headers: {
      Origin: origin(port),
      Cookie: Object.entries(cookies)
        .map(([name, value]) => `${name}=${value}`)
        .join('; '),
    },
  });
}

const readAccount = (port: number, session: string, timeoutMs?: number) =>
  request(port, '/api/account', { headers: { Cookie: `${SESSION_COOKIE}=${session}` }, timeoutMs });

interface TestAccount {
  email: string;
  password: string;
  fpid: string;
}

/** Signs in through the instance on `port`; returns the new session token. */
async function signIn(port: number, account: TestAccount): Promise<string> {
  const answer = await apiPost(
    port,
    '/api/auth/login',
    { email: account.email, password: account.password, language: 'en' },
    { [FPID_COOKIE]: account.fpid },
  );
  expect(answer.status === 200, `sign-in answered ${answer.status}: ${decoded(answer)}`);
  expect(json<{ status: string }>(answer).status === 'signed-in', `sign-in answered ${decoded(answer)}`);
  const session = setCookie(answer, SESSION_COOKIE);
  expect(session, 'sign-in set no session cookie');
  return session;
}

/** Created by the session check, signed in again by the database check. */
let account: TestAccount | undefined;

// ---------------------------------------------------------------------------------------------
// 0. nginx answers as the Node server does.

/** Headers that differ between any two servers and say nothing about the site. */
const SERVER_OWN_HEADERS = new Set([
  'date',
  'etag',
  'last-modified',
  'server',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'accept-ranges',
  // Each request's own id (nginx's $request_id for those it passes on).
  'x-request-id',
]);

function comparable(answer: Answer): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < answer.rawHeaders.length; i += 2) {
    const name = (answer.rawHeaders[i] ?? '').toLowerCase();
    if (SERVER_OWN_HEADERS.has(name)) continue;
    // A header sent twice shows as two values.
    headers[name] =
      name in headers ? `${headers[name]} | ${answer.rawHeaders[i + 1]}` : (answer.rawHeaders[i + 1] ?? '');
  }
  return headers;
}

/** Where nginx takes an answer from: the build on disk, or an instance (decision 201). */
type Source = 'build' | 'instances';

/** What nginx's access log says it did with each request, in the order it wrote them. */
function accessLogSince(nginx: Nginx, offset: number) {
  return readFileSync(nginx.accessLog)
    .subarray(offset)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [, method = '', target = '', upstream = ''] = line.match(/^\d+ (\S+) (\S+) upstream=(.+)$/) ?? [];
      return { method, target, upstream };
    });
}

export async function nginxAnswersLikeNode(cluster: Cluster, report: Report) {
  const node = cluster.instances[0]?.port ?? 0;
  const nginx = cluster.nginx.port;
  const assets = readdirSync(path.join(ROOT, 'dist/client/assets'));
  const script = assets.find((name) => name.endsWith('.js'));
  const style = assets.find((name) => name.endsWith('.css'));
  expect(script && style, 'the build has no script or style in dist/client/assets');
  const shareImage = readdirSync(path.join(ROOT, 'dist/client/assets/share'))[0];
  expect(shareImage, 'the build has no share image in dist/client/assets/share');

  const both = 'br, gzip';
  const cases: { target: string; from: Source; method?: string; encoding?: string; cookie?: string }[] = [
    // Files nginx serves from the build: hashed assets and the top-level files.
    ...['/robots.txt', '/sitemap.xml'].map((target) => ({
      target,
      encoding: both,
      from: 'build' as const,
    })),
    // Drawn from the logo set in the console, so the instances' (decision 203).
    { target: '/favicon.png', encoding: both, from: 'instances' },
    { target: `/assets/${script}`, encoding: both, from: 'build' },
    { target: `/assets/${style}`, encoding: both, from: 'build' },
    { target: `/assets/share/${shareImage}`, encoding: both, from: 'build' },
    { target: `/assets/${script}`, encoding: 'gzip', from: 'build' },
    { target: '/robots.txt', from: 'build' },
    { target: '/sitemap.xml?x=1', encoding: both, from: 'build' },
    { target: '/robots.txt', method: 'HEAD', encoding: both, from: 'build' },
    // Pages and texts: the instances render them again when texts are published.
    ...['/en', '/en/about', '/th/register', '/nl/cookie-policy'].map((target) => ({
      target,
      encoding: both,
      from: 'instances' as const,
    })),
    { target: '/locales/en/common.json', encoding: both, from: 'instances' },
    { target: '/locales/config.json', encoding: both, from: 'instances' },
    { target: '/en/about', encoding: 'gzip', from: 'instances' },
    { target: '/en/contact', from: 'instances' },
    // The account is the sign-in page without the signed-in cookie, and varies with it.
    { target: '/en/account', encoding: both, from: 'instances' },
    { target: '/en/account', encoding: both, cookie: 'lang=en; signed_in=1', from: 'instances' },
    { target: '/th/account', cookie: 'signed_in=0', from: 'instances' },
    { target: '/en/about?utm_source=x', encoding: both, from: 'instances' },
    { target: '/en/about', method: 'HEAD', encoding: both, from: 'instances' },
    // The root, redirects, refusals, and what the build lacks.
    { target: '/', encoding: both, from: 'instances' },
    { target: '/?from=mail', encoding: both, from: 'instances' },
    { target: '/', cookie: 'lang=th', from: 'instances' },
    { target: '/?x=1', cookie: 'lang=de', from: 'instances' },
    { target: '/en/about/', from: 'instances' },
    { target: '/about', from: 'instances' },
    { target: '/xx/about', from: 'instances' },
    { target: '/EN/about', from: 'instances' },
    { target: '/en//about', from: 'instances' },
    { target: '/%65n/about', from: 'instances' },
    { target: '/ROBOTS.txt', from: 'instances' },
    { target: '/index.html', from: 'instances' },
    { target: '/en/about/index.html', from: 'instances' },
    { target: '/robots.txt.gz', from: 'instances' },
    { target: '/.vite/manifest.json', from: 'instances' },
    { target: '/assets', from: 'instances' },
    { target: '/assets/', from: 'instances' },
    { target: '/assets/missing.js', from: 'instances' },
    { target: '/assets/share/missing.png', from: 'instances' },
    { target: `/assets/${script}.gz`, from: 'instances' },
    { target: `/assets/${script}.br`, from: 'instances' },
    { target: '/locales/missing.json', from: 'instances' },
    { target: '/locales/en/common.json.br', from: 'instances' },
    { target: '/en/about', method: 'POST', from: 'instances' },
    { target: '/robots.txt', method: 'DELETE', from: 'instances' },
    { target: `/assets/${script}`, method: 'OPTIONS', from: 'instances' },
    { target: '/api', from: 'instances' },
    { target: '/api/health', from: 'instances' },
    { target: '/api/missing', from: 'instances' },
    { target: '/api/fingerprint', from: 'instances' },
  ];

  const logStart = readFileSync(cluster.nginx.accessLog).length;
  const differences: string[] = [];
  for (const { target, method, encoding, cookie } of cases) {
    const headers: Record<string, string> = {};
    if (encoding) headers['Accept-Encoding'] = encoding;
    if (cookie) headers.Cookie = cookie;
    const [direct, proxied] = [
      await request(node, target, { method, headers }),
      await request(nginx, target, { method, headers }),
    ];
    const label = `${method ?? 'GET'} ${target}${encoding ? ` (${encoding})` : ''}${cookie ? ` (${cookie})` : ''}`;
    const a = comparable(direct);
    const b = comparable(proxied);
    if (direct.status !== proxied.status)
      differences.push(`${label}: status ${direct.status} from Node, ${proxied.status} from nginx`);
    for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (a[name] !== b[name])
        differences.push(`${label}: ${name} is ${a[name] ?? '(none)'} from Node, ${b[name] ?? '(none)'} from nginx`);
    }
    if (direct.status === 200 && method !== 'HEAD' && !decoded(direct).equals(decoded(proxied))) {
      differences.push(`${label}: the bodies differ`);
    }
  }
  expect(differences.length === 0, `nginx and Node answer differently:\n      ${differences.join('\n      ')}`);
  report.note(`${cases.length} requests: same status, headers (security headers included) and content from both`);

  // Who answered each through nginx, from its access log (written once the answer has gone).
  const logged = await waitFor(
    "every request in nginx's access log",
    async () => {
      const lines = accessLogSince(cluster.nginx, logStart);
      return lines.length >= cases.length ? lines : undefined;
    },
    { timeoutMs: 5_000, intervalMs: 50 },
  );
  const misplaced = cases.flatMap(({ target, method = 'GET', from }) => {
    const at = logged.findIndex((line) => line.method === method && line.target === target);
    const [line] = at < 0 ? [] : logged.splice(at, 1);
    const servedFrom: Source | 'nowhere' = !line ? 'nowhere' : line.upstream === '-' ? 'build' : 'instances';
    return servedFrom === from ? [] : [`${method} ${target}: from ${servedFrom}, not from the ${from}`];
  });
  expect(misplaced.length === 0, `nginx took answers from the wrong place:\n      ${misplaced.join('\n      ')}`);
  report.note(
    `nginx served ${cases.filter((entry) => entry.from === 'build').length} of them from the build and passed the rest (pages, /locales/, what the build lacks) to the instances`,
  );

  // Validators work through nginx: its own for a file of the build, the instances' for a page.
  for (const target of ['/robots.txt', '/en/about']) {
    const first = await request(nginx, target, { headers: { 'Accept-Encoding': both } });
    const etag = first.headers.etag;
    expect(etag, `nginx sent no ETag for ${target}`);
    const revisit = await request(nginx, target, { headers: { 'Accept-Encoding': both, 'If-None-Match': etag } });
    expect(revisit.status === 304, `a revisit of ${target} with If-None-Match got ${revisit.status}, not 304`);
  }

  const encodingOf = async (target: string, accept: string) =>
    (await request(nginx, target, { headers: { 'Accept-Encoding': accept } })).headers['content-encoding'] ?? 'none';
  const encodings = async (target: string) =>
    Promise.all([both, 'gzip', 'identity'].map((accept) => encodingOf(target, accept)));
  const page = await encodings('/en/about');
  expect(page.join() === 'br,gzip,none', `encodings of a page through nginx: ${page.join(', ')}`);
  const file = await encodings(`/assets/${script}`);
  expect(file[1] === 'gzip' && file[2] === 'none', `encodings served by nginx: ${file.join(', ')}`);
  if (cluster.nginx.brotli) {
    expect(file[0] === 'br', `brotli_static is on but a br-accepting client got ${file[0]}`);
    report.note(
      'precompressed files: .br and .gz sent by nginx (brotli_static, gzip_static), br and gzip by the instances for pages; 304 on revisit',
    );
  } else {
    report.note(
      'precompressed files: .gz sent by nginx, .br not (install libnginx-mod-http-brotli-static); br and gzip by the instances for pages; 304 on revisit',
    );
  }
}

/**
 * The staff command's path and the metrics are refused by nginx itself: with the right token and
 * every spelling of the path, no request reaches an instance (which would see it come from
 * loopback). An instance asked directly from this machine serves its metrics, and refuses them to a
 * request that came through a proxy.
 */
export async function internalPathsRefused(cluster: Cluster, report: Report) {
  const secret = Buffer.from(cluster.instanceEnv.SERVER_SECRET ?? '', 'utf8');
  const email = `outside-${randomBytes(4).toString('hex')}@example.com`;
  const targets = [
    '/api/internal/staff',
    '/api/internal/staff/',
    '/api/internal/staff?x=1',
    '/api//internal/staff',
    '/api/%69nternal/staff',
    '/api/internal/../internal/staff',
    '/api/./internal/staff',
    '/api/internal',
  ];
  const logStart = readFileSync(cluster.nginx.accessLog).length;
  for (const target of targets) {
    const answer = await request(cluster.nginx.port, target, {
      method: 'POST',
      body: JSON.stringify({ action: 'add', email, role: 'admin' }),
      headers: { Authorization: `Bearer ${staffCommandToken(secret)}`, 'Content-Type': 'application/json' },
    });
    expect(answer.status === 404, `POST ${target} through nginx answered ${answer.status}: ${decoded(answer)}`);
  }
  const metricsTargets = ['/metrics', '/metrics/', '/metrics?x=1', '//metrics', '/%6Detrics', '/api/../metrics'];
  for (const target of metricsTargets) {
    const answer = await request(cluster.nginx.port, target);
    expect(answer.status === 404, `GET ${target} through nginx answered ${answer.status}: ${decoded(answer)}`);
  }
  const proxied = readFileSync(cluster.nginx.accessLog)
    .subarray(logStart)
    .toString('utf8')
    .split('\n')
    .filter((line) => line && !line.includes('upstream=-'));
  expect(proxied.length === 0, `nginx passed these to an instance:\n      ${proxied.join('\n      ')}`);
  const made = await cluster.postgres.query('SELECT role FROM accounts WHERE email = $1', [email]);
  expect(made.length === 0, `${email} was made: ${JSON.stringify(made)}`);
  const [instance] = cluster.instances;
  if (instance) {
    const direct = await request(instance.port, '/metrics');
    expect(
      direct.status === 200 && decoded(direct).includes('site_http_request_duration_seconds'),
      `an instance asked directly for /metrics answered ${direct.status}`,
    );
    const forwarded = await request(instance.port, '/metrics', { headers: { 'X-Forwarded-For': '203.0.113.9' } });
    expect(forwarded.status === 401, `an instance asked for /metrics through a proxy answered ${forwarded.status}`);
  }
  report.note(
    `${targets.length} spellings of /api/internal/staff with the right token and ${metricsTargets.length} of /metrics: 404 from nginx, none passed on`,
  );
}

// ---------------------------------------------------------------------------------------------
// 1. A session made on one instance works on the others.

/**
 * Registers a new account on the instance on `port` and confirms it with the mailed code on
 * `verifyPort`; returns it with the session the confirmation opened.
 */
export async function registerAccount(
  cluster: Cluster,
  port: number,
  verifyPort = port,
): Promise<{ account: TestAccount; session: string }> {
  const fpid = await mintFpid(port);
  const suffix = randomBytes(4).toString('hex');
  const email = `cluster-${suffix}@example.com`;
  const password = `Cluster-${randomBytes(9).toString('base64url')}`;
  const phone = `+4930${String(Number.parseInt(suffix, 16) % 10_000_000).padStart(7, '0')}`;

  const registered = await apiPost(
    port,
    '/api/auth/register',
    { name: 'Cluster Test', email, phone, password, acceptTerms: true, language: 'en' },
    { [FPID_COOKIE]: fpid },
  );
  expect(
    registered.status === 201,
    `registration on port ${port} answered ${registered.status}: ${decoded(registered)}`,
  );

  // Without SMTP_URL the mail waits in the outbox table: the code is in its link.
  const code = await waitFor(
    'the verification mail in mail_outbox',
    async () => {
      const [mail] = await cluster.postgres.query<{ text_body: string }>(
        'SELECT text_body FROM mail_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1',
        [email],
      );
      return mail?.text_body.match(/[#&]code=(\d{6})\b/)?.[1];
    },
    { timeoutMs: 5_000 },
  );

  const verified = await apiPost(verifyPort, '/api/auth/verify', { email, code }, { [FPID_COOKIE]: fpid });
  expect(
    verified.status === 200,
    `the mailed code, on port ${verifyPort}, answered ${verified.status}: ${decoded(verified)}`,
  );
  const session = setCookie(verified, SESSION_COOKIE);
  expect(session, 'verification set no session cookie');
  return { account: { email, password, fpid }, session };
}

/** A new account made an admin with a second factor, as the console asks; returns its session. */
export async function registerAdmin(cluster: Cluster, port: number): Promise<string> {
  const { account, session } = await registerAccount(cluster, port);
  await cluster.postgres.query(`UPDATE accounts SET role = 'admin' WHERE email = $1`, [account.email]);
  await giveSecondFactor(
    { query: async <T>(sql: string, params?: unknown[]) => (await cluster.postgres.query(sql, params)) as T[] },
    account.email,
  );
  return session;
}

export async function sessionsAcrossInstances(cluster: Cluster, report: Report) {
  const [a, b, c] = cluster.instances.map((instance) => instance.port) as [number, number, number];
  const { account: made, session: first } = await registerAccount(cluster, a, b);
  const { email } = made;
  for (const instance of cluster.instances) {
    const answer = await readAccount(instance.port, first);
    expect(answer.status === 200, `the session from instance 1, on instance ${instance.index}: ${answer.status}`);
    expect(json<{ email: string }>(answer).email === email, `instance ${instance.index} shows another account`);
  }
  report.note('registered on instance 0, verified with the mailed code on instance 1, session read on 0, 1 and 2');

  account = made;
  const session = await signIn(c, account);
  for (const port of [a, b, cluster.nginx.port]) {
    const answer = await readAccount(port, session);
    expect(answer.status === 200, `the session signed in on instance 2 gave ${answer.status} on port ${port}`);
  }
  const signedOut = await apiPost(a, '/api/auth/logout', {}, { [SESSION_COOKIE]: session });
  expect(signedOut.status === 200, `sign-out on instance 0 answered ${signedOut.status}`);
  for (const port of [b, c]) {
    const answer = await readAccount(port, session);
    expect(
      answer.status === 401,
      `after sign-out on instance 0 the session still gave ${answer.status} on port ${port}`,
    );
  }
  report.note('signed in on instance 2: /api/account 200 on 0, 1 and through nginx; signed out on 0: 401 on 1 and 2');
}

/** Every instance, as `npm run serve` starts it, hashes in pool threads ten steps below its own thread (decision 263). */
export async function hashesBelowPages(cluster: Cluster, report: Report) {
  for (const instance of cluster.instances) {
    const { own, pool } = threadPriorities(instance.process.child.pid as number);
    expect(pool.length > 0, `instance ${instance.index} shows no pool thread`);
    expect(
      pool.every((nice) => nice === Math.min(19, own + POOL_NICENESS)),
      `instance ${instance.index}: pool threads at nice ${pool.join(', ')}, its own thread at ${own}`,
    );
  }
  report.note(`${cluster.instances.length} instances: their pool threads ten steps of nice below their own thread`);
}

// ---------------------------------------------------------------------------------------------
// 2. Rate limits hold across instances.

export async function rateLimitsAcrossInstances(cluster: Cluster, report: Report) {
  const limit = cluster.contactLimit;
  const fpid = await mintFpid(cluster.instances[0]?.port ?? 0);
  // One client (the address nginx would have written) hitting all three instances at once.
  const client = '192.0.2.10';
  const hits = 3 * limit + 3;
  const answers = await Promise.all(
    Array.from({ length: hits }, (_, i) =>
      postEmptyContact(cluster.instances[i % cluster.instances.length]?.port ?? 0, fpid, { 'X-Forwarded-For': client }),
    ),
  );
  const allowed = answers.filter((answer) => answer.status === 400).length;
  const refused = answers.filter((answer) => answer.status === 429 && answer.headers['retry-after']).length;
  expect(
    allowed === limit && refused === hits - limit,
    `${hits} concurrent contact posts over 3 instances, limit ${limit}: ${allowed} counted and read, ${refused} refused with Retry-After, ` +
      `statuses ${answers.map((answer) => answer.status).join(' ')}`,
  );
  report.note(
    `${hits} concurrent contact posts spread over the 3 instances: exactly ${limit} let through, the rest 429 with Retry-After`,
  );

  // Through nginx a client cannot choose its address: whatever X-Forwarded-For it sends, the
  // instances count it under the address nginx saw (here 127.0.0.2, a loopback address of its own).
  const through = [];
  for (let i = 0; i < limit + 3; i++) {
    through.push(
      await postEmptyContact(cluster.nginx.port, fpid, { 'X-Forwarded-For': `198.51.100.${i + 1}` }, '127.0.0.2'),
    );
  }
  const passed = through.filter((answer) => answer.status === 400).length;
  expect(
    passed === limit,
    `${limit + 3} posts through nginx with forged X-Forwarded-For: ${passed} let through, expected ${limit}`,
  );
  report.note(
    `${limit + 3} posts through nginx, each with a forged X-Forwarded-For: ${limit} let through (counted under nginx's peer address)`,
  );
}

// ---------------------------------------------------------------------------------------------
// 3. Killing one instance during load through nginx fails no request.

const LOAD = {
  workers: 16,
  killAfterMs: 1_500,
  durationMs: 5_000,
  maxRequests: 50_000,
  // nginx serves these from the build.
  files: ['/robots.txt', '/sitemap.xml'],
  // Answered by the instances: pages and texts, the root page, a redirect, the health check.
  proxied: [
    ...['/en', '/en/about', '/fr/contact', '/th/register', '/de/privacy-policy', '/locales/en/common.json'].map(
      (target) => ({ target, status: 200 }),
    ),
    { target: '/', status: 200 },
    { target: '/favicon.png', status: 200 },
    { target: '/about', status: 302 },
    { target: '/api/health', status: 200 },
  ],
};

export async function killOneInstanceUnderLoad(cluster: Cluster, report: Report) {
  const nginx = cluster.nginx.port;
  const victim = cluster.instances[1];
  expect(victim, 'no instance 1');
  const targets = [
    ...LOAD.files.map((target) => ({ target, status: 200, proxied: false })),
    ...LOAD.proxied.map((entry) => ({ ...entry, proxied: true })),
  ];
  const logStart = readFileSync(cluster.nginx.accessLog).length;
  const agent = new http.Agent({ keepAlive: true, maxSockets: LOAD.workers });
  const counts = { files: 0, proxied: 0 };
  const failures: string[] = [];
  let sent = 0;
  let killedAt = 0;
  const started = performance.now();
  const elapsed = () => performance.now() - started;

  const worker = async (offset: number) => {
    for (let i = offset; elapsed() < LOAD.durationMs && sent < LOAD.maxRequests; i++) {
      const { target, status, proxied } = targets[i % targets.length] ?? { target: '/', status: 200, proxied: true };
      sent++;
      try {
        const answer = await request(nginx, target, { agent, headers: { 'Accept-Encoding': 'br, gzip' } });
        if (answer.status !== status) failures.push(`${target}: ${answer.status} at ${Math.round(elapsed())} ms`);
      } catch (error) {
        failures.push(`${target}: ${(error as Error).message} at ${Math.round(elapsed())} ms`);
      }
      if (proxied) counts.proxied++;
      else counts.files++;
    }
  };
  try {
    const killer = (async () => {
      await sleep(LOAD.killAfterMs);
      victim.process.child.kill('SIGKILL');
      killedAt = elapsed();
      await victim.process.exited;
    })();
    await Promise.all([...Array.from({ length: LOAD.workers }, (_, i) => worker(i)), killer]);
    agent.destroy();

    // What nginx did with the proxied requests of this load, from its access log.
    const victimAddress = `127.0.0.1:${victim.port}`;
    const upstreams = readFileSync(cluster.nginx.accessLog)
      .subarray(logStart)
      .toString('utf8')
      .split('\n')
      .map((line) => line.match(/ upstream=(.+)$/)?.[1]?.split(', ') ?? []);
    const servedByVictim = upstreams.filter((tried) => tried.length === 1 && tried[0] === victimAddress).length;
    const retried = upstreams.filter((tried) => tried.length > 1 && tried.includes(victimAddress)).length;

    report.note(
      `${sent} requests in ${(elapsed() / 1000).toFixed(1)} s by ${LOAD.workers} clients (${counts.files} files from the build, ` +
        `${counts.proxied} proxied: pages, texts, the root, a redirect, health); instance 1 killed (SIGKILL) at ${Math.round(killedAt)} ms`,
    );
    report.note(
      `instance 1 answered ${servedByVictim} proxied requests before it died; nginx passed ${retried} to another instance after it failed`,
    );
    expect(killedAt > 0, 'the instance was not killed during the load');
    expect(servedByVictim > 0, 'no proxied request reached the killed instance: the check proved nothing');
    expect(
      failures.length === 0,
      `${failures.length} failed requests:\n      ${failures.slice(0, 10).join('\n      ')}`,
    );
    report.note('failed requests: 0');
  } finally {
    // Back for the next check, whatever happened; nginx sends it requests again once it answers.
    if (!instanceRunning(victim))
      cluster.instances[1] = await startInstance(1, victim.port, cluster.folder, cluster.instanceEnv);
  }
}

// ---------------------------------------------------------------------------------------------
// 4. PostgreSQL stopped for a while, then back: every instance works again.

const OUTAGE_MS = 4_000;
const RECOVERY_TIMEOUT_MS = 30_000;

export async function databaseOutage(cluster: Cluster, report: Report) {
  expect(account, 'no account: the session check did not get far enough to make one');
  const session = await signIn(cluster.instances[0]?.port ?? 0, account);
  const { fpid } = account;
  for (const instance of cluster.instances) {
    const answer = await readAccount(instance.port, session);
    expect(answer.status === 200, `before the outage, /api/account on instance ${instance.index}: ${answer.status}`);
  }

  await cluster.postgres.stop();
  const outageStarted = performance.now();
  report.note(`PostgreSQL stopped (fast shutdown) for ${OUTAGE_MS / 1000} s`);

  // While it is down: pages come from the instances' memory regardless; what the API does is recorded.
  const seen = new Map<string, { count: number; slowest: number }>();
  const record = (what: string, ms: number) => {
    const entry = seen.get(what) ?? { count: 0, slowest: 0 };
    entry.count++;
    entry.slowest = Math.max(entry.slowest, ms);
    seen.set(what, entry);
  };
  let pageFailures = 0;
  let health = '';
  while (performance.now() - outageStarted < OUTAGE_MS) {
    const page = await request(cluster.nginx.port, '/en/about').catch(() => undefined);
    if (page?.status !== 200) pageFailures++;
    for (const instance of cluster.instances) {
      const started = performance.now();
      const answer = await readAccount(instance.port, session, 5_000).catch((error: Error) => error);
      const ms = performance.now() - started;
      record(
        answer instanceof Error
          ? `no answer (${answer.message})`
          : `${answer.status} ${decoded(answer).toString('utf8').slice(0, 60)}`,
        ms,
      );
    }
    const healthAnswer = await request(cluster.instances[0]?.port ?? 0, '/api/health', { timeoutMs: 5_000 }).catch(
      (error: Error) => error,
    );
    health = healthAnswer instanceof Error ? healthAnswer.message : String(healthAnswer.status);
    await sleep(250);
  }
  for (const [what, { count, slowest }] of seen) {
    report.note(`during the outage /api/account answered: ${what} (${count}×, slowest ${Math.round(slowest)} ms)`);
  }
  if (health === '200') {
    report.finding(
      '/api/health answered 200 while PostgreSQL was down: it does not reflect the database (issue 8, item 11)',
    );
  }
  const hung = [...seen.keys()].some((what) => what.startsWith('no answer'));
  if (hung) report.finding('/api/account gave no answer within 5 s while PostgreSQL was down (issue 8, item 11)');
  expect(pageFailures === 0, `${pageFailures} page requests through nginx failed while PostgreSQL was down`);

  await cluster.postgres.start();
  const restarted = performance.now();
  report.note(`PostgreSQL started again after ${((restarted - outageStarted) / 1000).toFixed(1)} s`);

  const problems: string[] = [];
  const recovered: string[] = [];
  await Promise.all(
    cluster.instances.map(async (instance) => {
      try {
        await waitFor(
          `instance ${instance.index} reading /api/account`,
          async () => {
            if (!instanceRunning(instance)) throw new Error('the instance has exited');
            return (await readAccount(instance.port, session, 5_000)).status === 200 ? true : undefined;
          },
          { timeoutMs: RECOVERY_TIMEOUT_MS, intervalMs: 250 },
        );
        // A write too: the contact limit's hit is an upsert.
        await waitFor(
          `instance ${instance.index} writing (POST ${CONTACT_API.messages})`,
          async () =>
            (await postEmptyContact(instance.port, fpid, { 'X-Forwarded-For': `192.0.2.${100 + instance.index}` }))
              .status === 400
              ? true
              : undefined,
          { timeoutMs: RECOVERY_TIMEOUT_MS, intervalMs: 250 },
        );
        recovered.push(`${instance.index} after ${((performance.now() - restarted) / 1000).toFixed(1)} s`);
      } catch (error) {
        problems.push((error as Error).message);
      }
    }),
  );
  expect(problems.length === 0, problems.join('\n      '));
  const throughNginx = await readAccount(cluster.nginx.port, session);
  expect(throughNginx.status === 200, `/api/account through nginx after the outage: ${throughNginx.status}`);
  report.note(`reads and writes work again on every instance: ${recovered.sort().join(', ')}; and through nginx`);
}
