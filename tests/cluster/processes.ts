import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { BROTLI_STATIC_MODULE, nginxSiteConfig } from '#deploy/nginx-config.ts';
import { serveCommand } from '#deploy/serve-command.ts';
import { request } from './http.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** A child process this test started, with its output in a log file. */
export interface Managed {
  name: string;
  child: ChildProcess;
  log: string;
  exited: Promise<void>;
}

const running = new Set<Managed>();

/** Starts a process with its output going to `log`; it is stopped by stopAll() whatever happens. */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  options: { log: string; env?: NodeJS.ProcessEnv; uid?: number; gid?: number },
): Managed {
  const out = openSync(options.log, 'a');
  const child = spawn(command, args, {
    cwd: ROOT,
    env: options.env ?? process.env,
    stdio: ['ignore', out, out],
    uid: options.uid,
    gid: options.gid,
  });
  closeSync(out);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const managed = { name, child, log: options.log, exited };
  running.add(managed);
  void exited.then(() => running.delete(managed));
  return managed;
}

const isRunning = (managed: Managed) => managed.child.exitCode === null && managed.child.signalCode === null;

/** Sends `signal`, waits up to `graceMs` for the process to end, then kills it. */
export async function stopProcess(managed: Managed, signal: NodeJS.Signals = 'SIGTERM', graceMs = 5_000) {
  if (!isRunning(managed)) return;
  managed.child.kill(signal);
  const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), graceMs).unref());
  if ((await Promise.race([managed.exited.then(() => 'ended' as const), timer])) === 'late') {
    managed.child.kill('SIGKILL');
    await managed.exited;
  }
}

/** Stops every process still running, the last started first. */
export async function stopAll() {
  for (const managed of [...running].reverse()) {
    // PostgreSQL: SIGINT is its fast shutdown (SIGTERM would wait for every client to leave).
    await stopProcess(managed, managed.name === 'postgres' ? 'SIGINT' : 'SIGTERM');
  }
}

/** Last resort when the test itself is ending: nothing it started may outlive it. */
export function killAllNow() {
  for (const managed of running) if (isRunning(managed)) managed.child.kill('SIGKILL');
}

export function logTail(managed: Managed, lines = 15): string {
  try {
    return readFileSync(managed.log, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls `attempt` every `intervalMs` until it returns a value other than undefined, for at most
 * `timeoutMs`; throws naming `what` when time runs out.
 */
export async function waitFor<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  { timeoutMs, intervalMs = 200 }: { timeoutMs: number; intervalMs?: number },
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no attempt';
  while (performance.now() < deadline) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
      last = 'not yet';
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(intervalMs);
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s (last: ${last})`);
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: a throwaway cluster in the test's folder, on its own port, stopped and started at will.

function postgresBinaries(): string {
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((name) => existsSync(`/usr/lib/postgresql/${name}/bin/initdb`))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return `/usr/lib/postgresql/${versions[0]}/bin`;
  const found = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const bindir = found.status === 0 ? found.stdout.trim() : '';
  if (bindir && existsSync(path.join(bindir, 'initdb'))) return bindir;
  throw new Error('PostgreSQL is not installed (Debian: apt-get install -y postgresql)');
}

export interface Postgres {
  port: number;
  version: string;
  /** What the site's servers connect with. */
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** initdb into `dir` (as the postgres user when this runs as root: PostgreSQL refuses root). */
export async function createPostgres(dir: string): Promise<Postgres> {
  const bin = postgresBinaries();
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
      }
    : {};
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const superPassword = crypto.randomUUID();
  const sitePassword = crypto.randomUUID();
  const passwordFile = path.join(dir, 'superuser-password');
  await writeFile(passwordFile, `${superPassword}\n`, { mode: 0o600 });
  if (owner.uid !== undefined && owner.gid !== undefined) {
    // The test's folder is private to root; postgres needs to pass through it to its own.
    await chmod(path.dirname(dir), 0o711);
    await chown(dir, owner.uid, owner.gid);
    await chown(passwordFile, owner.uid, owner.gid);
  }
  const data = path.join(dir, 'data');
  const init = spawnSync(
    path.join(bin, 'initdb'),
    [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=scram-sha-256',
      `--pwfile=${passwordFile}`,
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ],
    { encoding: 'utf8', ...owner },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const version = readFileSync(path.join(data, 'PG_VERSION'), 'utf8').trim();
  const port = await freePort();
  let server: Managed | undefined;

  const connect = async (user: string, password: string, database: string) => {
    const client = new pg.Client({ host: '127.0.0.1', port, user, password, database, connectionTimeoutMillis: 3_000 });
    client.on('error', () => {});
    await client.connect();
    return client;
  };

  const postgres: Postgres = {
    port,
    version,
    url: `postgres://site:${sitePassword}@127.0.0.1:${port}/site`,
    async start() {
      server = startProcess(
        'postgres',
        path.join(bin, 'postgres'),
        [
          '-D',
          data,
          '-p',
          String(port),
          '-c',
          'listen_addresses=127.0.0.1',
          '-c',
          `unix_socket_directories=${dir}`,
          // A throwaway cluster: durability buys nothing here.
          '-c',
          'fsync=off',
          '-c',
          'synchronous_commit=off',
          '-c',
          'full_page_writes=off',
        ],
        { log: path.join(dir, 'postgres.log'), ...owner },
      );
      const started = server;
      await waitFor(
        'PostgreSQL accepting connections',
        async () => {
          if (!isRunning(started)) throw new Error(`postgres exited:\n${logTail(started)}`);
          const client = await connect('postgres', superPassword, 'postgres');
          await client.end();
          return true;
        },
        { timeoutMs: 30_000 },
      );
    },
    async stop() {
      if (server) await stopProcess(server, 'SIGINT', 20_000);
    },
    async query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]) {
      const client = await connect('site', sitePassword, 'site');
      try {
        return (await client.query<T>(sql, params)).rows;
      } finally {
        await client.end();
      }
    },
  };

  await postgres.start();
  const admin = await connect('postgres', superPassword, 'postgres');
  try {
    await admin.query(`CREATE ROLE site LOGIN PASSWORD '${sitePassword}'`);
    await admin.query('CREATE DATABASE site OWNER site');
  } finally {
    await admin.end();
  }
  return postgres;
}

// ---------------------------------------------------------------------------------------------
// The site's Node server, started as `npm run serve` starts it.

export interface Instance {
  index: number;
  port: number;
  process: Managed;
}

/** Upstreams and credentials the site must not pick up from the environment of whoever runs the test. */
const UNWANTED_ENV =
  /^(PORT|HOST|DATA_DIR|SITE_DIR|DATABASE_URL|SERVER_SECRET|TRUST_PROXY|SMTP_URL|MAIL_FROM|POSTHOG_.*|OTEL_.*|FINGERPRINT_RATE_LIMIT|CONTACT_RATE_LIMIT|SESSION_IDLE_SECONDS|UPSTREAM_TIMEOUT_MS)$/;

export async function startInstance(
  index: number,
  port: number,
  folder: string,
  env: Record<string, string>,
): Promise<Instance> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !UNWANTED_ENV.test(name)));
  const dataDir = path.join(folder, `instance-${index}`);
  await mkdir(dataDir, { recursive: true });
  // As `npm run serve` starts it, so the test follows the server wherever it moves.
  const serve = serveCommand(ROOT);
  const managed = startProcess(`instance ${index}`, process.execPath, serve.args, {
    log: path.join(folder, `instance-${index}.log`),
    env: { ...base, ...serve.env, ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
  });
  await waitFor(
    `instance ${index} answering /api/health`,
    async () => {
      if (!isRunning(managed)) throw new Error(`it exited:\n${logTail(managed)}`);
      return (await request(port, '/api/health', { timeoutMs: 2_000 })).status === 200 ? true : undefined;
    },
    { timeoutMs: 30_000 },
  );
  return { index, port, process: managed };
}

export const instanceRunning = (instance: Instance) => isRunning(instance.process);

// ---------------------------------------------------------------------------------------------
// nginx with the configuration deploy/ generates, in the test's folder.

export interface Nginx {
  port: number;
  version: string;
  brotli: boolean;
  accessLog: string;
  process: Managed;
}

function nginxBinary(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).concat(['/usr/sbin', '/usr/local/sbin'])) {
    if (dir && existsSync(path.join(dir, 'nginx'))) return path.join(dir, 'nginx');
  }
  throw new Error('nginx is not installed (Debian: apt-get install -y nginx)');
}

export async function startNginx(folder: string, upstreams: number[]): Promise<Nginx> {
  const binary = nginxBinary();
  const port = await freePort();
  const brotli = existsSync(BROTLI_STATIC_MODULE);
  const site = await nginxSiteConfig({
    upstreams: upstreams.map((upstream) => `127.0.0.1:${upstream}`),
    listen: [`127.0.0.1:${port}`],
    serverName: 'localhost',
    siteDir: path.join(ROOT, 'dist'),
    brotli: brotli ? 'on' : 'off',
  });
  const prefix = path.join(folder, 'nginx');
  await mkdir(prefix, { recursive: true });
  await writeFile(path.join(prefix, 'site.conf'), site);
  const accessLog = path.join(prefix, 'access.log');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (kind) => `    ${kind}_temp_path ${path.join(prefix, `${kind}-temp`)};`,
  );
  // The main file an operator's system provides (Debian: /etc/nginx/nginx.conf), reduced to what
  // this test needs, with the upstream each answer came from in the access log.
  await writeFile(
    path.join(prefix, 'nginx.conf'),
    [
      // As root, nginx wants to know whom its workers run as; root can read the build wherever it is.
      process.getuid?.() === 0 ? 'user root;' : '',
      'worker_processes 2;',
      `error_log ${path.join(prefix, 'error.log')} warn;`,
      brotli ? `load_module ${BROTLI_STATIC_MODULE};` : '',
      'events { worker_connections 1024; }',
      'http {',
      "    log_format cluster '$status $request_method $request_uri upstream=$upstream_addr';",
      `    access_log ${accessLog} cluster;`,
      ...temp,
      `    include ${path.join(prefix, 'site.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const args = ['-p', prefix, '-c', path.join(prefix, 'nginx.conf')];
  const pid = `pid ${path.join(prefix, 'nginx.pid')};`;
  const test = spawnSync(binary, [...args, '-t', '-q', '-g', pid], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t refused the configuration:\n${test.stderr}`);
  const version = (spawnSync(binary, ['-v'], { encoding: 'utf8' }).stderr.match(/nginx\/(\S+)/) ?? [])[1] ?? '?';
  const managed = startProcess('nginx', binary, [...args, '-g', `daemon off; ${pid}`], {
    log: path.join(prefix, 'stderr.log'),
  });
  await waitFor(
    'nginx serving /en',
    async () => {
      if (!isRunning(managed)) throw new Error(`nginx exited:\n${logTail(managed)}`);
      return (await request(port, '/en', { timeoutMs: 2_000 })).status === 200 ? true : undefined;
    },
    { timeoutMs: 15_000 },
  );
  return { port, version, brotli, accessLog, process: managed };
}

/** Whether nginx's worker `pid` has been told to stop: it takes no new connection then. */
function workerStopping(pid: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('shutting down');
  } catch {
    return true; // gone
  }
}

/**
 * Writes nginx's site configuration again (another build, an instance marked down) and reloads it
 * as `nginx -s reload` does; resolves once the new workers run and the old ones take no new
 * connection (a busy old worker can still accept a few after the new ones start), so that every
 * new connection is handled by the new configuration while the old workers finish what they had.
 */
export async function reloadNginx(
  nginx: Nginx,
  folder: string,
  upstreams: number[],
  options: { down?: number[]; siteDir: string },
): Promise<void> {
  const prefix = path.join(folder, 'nginx');
  const site = await nginxSiteConfig({
    upstreams: upstreams.map((upstream) => `127.0.0.1:${upstream}`),
    down: (options.down ?? []).map((upstream) => `127.0.0.1:${upstream}`),
    listen: [`127.0.0.1:${nginx.port}`],
    serverName: 'localhost',
    siteDir: options.siteDir,
    brotli: nginx.brotli ? 'on' : 'off',
  });
  await writeFile(path.join(prefix, 'site.conf'), site);
  const master = nginx.process.child.pid;
  if (!master) throw new Error('nginx is not running');
  const workers = () =>
    new Set(
      spawnSync('pgrep', ['-P', String(master)], { encoding: 'utf8' })
        .stdout.split(/\s+/)
        .filter(Boolean),
    );
  const before = workers();
  nginx.process.child.kill('SIGHUP');
  await waitFor(
    'nginx running new workers after the reload',
    async () => {
      const now = [...workers()].filter((pid) => !before.has(pid));
      return now.length >= 2 && [...before].every(workerStopping) ? true : undefined;
    },
    { timeoutMs: 15_000, intervalMs: 50 },
  );
}
