import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { storageEntry } from '#common/storage.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import { EventStreamReader } from './event-stream.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

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

export interface Instance {
  url: string;
  child: ChildProcess;
  /** What it printed, for a failure's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * A real server process (`node src/server/main.ts`) on a free port, with its own data folder and
 * an empty site (the API is what these tests need), behind one trusted proxy so that a test can
 * give each of its clients an address. Resolves once it answers /api/health.
 */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const dir = await mkdtemp(path.join(tmpdir(), 'site-instance-'));
  await mkdir(path.join(dir, 'site', 'client'), { recursive: true });
  await writeFile(path.join(dir, 'site', 'inline-hashes.json'), JSON.stringify({ scripts: [], styles: [] }));
  const port = await freePort();
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      SITE_DIR: path.join(dir, 'site'),
      SERVER_SECRET: 'instances-test-secret-of-at-least-32-characters',
      TRUST_PROXY: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const instance: Instance = {
    url,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const late = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(late);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Instance exited at start:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return instance;
    } catch {}
    if (Date.now() > deadline) {
      await instance.stop();
      throw new Error(`Instance did not answer:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let clients = 0;

/**
 * A browser talking to real servers: it keeps its cookies (one jar whichever instance answers, as
 * behind one address), sends the page's Origin and JSON, and comes from an address of its own.
 */
export class HttpClient {
  readonly cookies = new Map<string, string>();
  readonly address = `10.77.${(++clients >> 8) & 255}.${clients & 255}`;

  async fetch(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        Origin: base,
        'X-Forwarded-For': this.address,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(cookie ? { Cookie: cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (value === '' || attributes.some((a) => /^\s*max-age=0$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async post<T = Record<string, unknown>>(base: string, path: string, body: unknown = {}) {
    const response = await this.fetch(base, 'POST', path, body);
    return { status: response.status, body: (await response.json()) as T };
  }

  async get<T = Record<string, unknown>>(base: string, path: string) {
    const response = await this.fetch(base, 'GET', path);
    return { status: response.status, body: (await response.json()) as T };
  }

  async stream(base: string, path: string, headers: Record<string, string> = {}) {
    return new EventStreamReader(await this.fetch(base, 'GET', path, undefined, headers));
  }
}

/**
 * A signed-in operator (or `role`), written straight into the database: an account with an
 * authenticator app (which the console asks of staff) and a session made with it, whose token this
 * browser holds. Tests and benchmarks use it where the console cannot be reached.
 */
export async function seedStaff(db: Queryable, client: HttpClient, role = 'operator', name = 'Olga Operator') {
  const unique = randomBytes(6).toString('hex');
  const [account] = await db.query<{ id: string }>(
    `INSERT INTO accounts (name, email, phone, password_hash, language, verified_at, role)
     VALUES ($1, $2, $3, 'not-a-password-hash', 'en', now(), $4) RETURNING id`,
    [name, `staff-${unique}@example.com`, `+3161${Number.parseInt(unique.slice(0, 7), 16) % 10_000_000}`, role],
  );
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO sessions (token_hash, account_id, expires_at, factors)
     VALUES ($1, $2, now() + interval '1 day', '{password,totp}')`,
    [createHash('sha256').update(token).digest('base64url'), account?.id],
  );
  await db.query(
    `INSERT INTO account_totp (account_id, secret, confirmed_at) VALUES ($1, 'not-a-sealed-secret', now())`,
    [account?.id],
  );
  client.cookies.set(storageEntry('session').name, token);
  return account?.id as string;
}
