import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '#server/platform/site-config.ts';

const START_TIMEOUT = 90_000;
let scratch: string;
let siteDir: string;
const children: ChildProcess[] = [];

/** A port nobody listens on. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

interface Started {
  child: ChildProcess;
  port: number;
  /** Resolves with the exit code and everything written, when the process ends. */
  exit: Promise<{ code: number | null; output: string }>;
  /** Resolves when it serves, rejects when it ended first. */
  serving: Promise<void>;
}

/** `node src/server/main.ts`, as `npm run serve` starts it, on a small build of its own. */
async function startServer(dataDir: string): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SITE_DIR: siteDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const exit = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, output })),
  );
  const serving = new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Serving on')) resolve();
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exit.then(({ code }) => reject(new Error(`The server ended (${code}) before serving:\n${output}`)));
  });
  // Awaited only by tests that expect it to serve.
  serving.catch(() => {});
  return { child, port, exit, serving };
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'main-test-'));
  siteDir = path.join(scratch, 'site');
  await mkdir(path.join(siteDir, 'client'), { recursive: true });
  await writeFile(path.join(siteDir, 'client/index.html'), '<!doctype html><title>t</title>');
  await writeFile(path.join(siteDir, 'inline-hashes.json'), '{"scripts":[],"styles":[]}');
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await rm(scratch, { recursive: true, force: true });
});

describe('the server on the embedded database', () => {
  it('refuses to start a second time on one DATA_DIR, keeping the first serving, and keeps DATA_DIR for its owner', {
    timeout: START_TIMEOUT,
  }, async () => {
    const dataDir = path.join(scratch, 'data');
    const first = await startServer(dataDir);
    await first.serving;

    const second = await startServer(dataDir);
    const { code, output } = await second.exit;
    expect(code).toBe(1);
    expect(output).toContain(`DATA_DIR ${dataDir} is in use by another server (process ${first.child.pid})`);
    const health = await fetch(`http://127.0.0.1:${first.port}/api/health`);
    expect(await health.json()).toEqual({ status: 'ok' });

    const loose = [];
    for (const entry of [
      { parentPath: scratch, name: 'data' },
      ...(await readdir(dataDir, { recursive: true, withFileTypes: true })),
    ]) {
      const full = path.join(entry.parentPath, entry.name);
      const mode = (await stat(full)).mode & 0o777;
      if ((mode & 0o077) !== 0) loose.push(`${path.relative(dataDir, full)} ${mode.toString(8)}`);
    }
    expect(loose).toEqual([]);
    first.child.kill('SIGTERM');
    expect((await first.exit).code).toBe(0);
  });
});
