// Starts api-bench-server.ts in a child process as `npm run serve` starts the server (its
// environment and Node flags, decision 230), on PGlite in a temporary folder or on the PostgreSQL
// of DATABASE_URL, for the benches that load it from outside (`bench:fingerprint`, `bench:ingest`).
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveCommand } from '#deploy/serve-command.ts';
import { ROOT } from '#server/platform/site-config.ts';
import { freePort } from '#tests/support/instances.ts';

export interface ApiBenchChild {
  port: number;
  /** Where PGlite keeps its files (unused with DATABASE_URL); removed by `remove`. */
  dataDir: string;
  /** The server's processor time so far, in ms (user and system, every thread). */
  cpuMs(): Promise<number>;
  /** Stops the server and waits for its process to end. */
  stop(): Promise<void>;
  /** Removes the data folder. */
  remove(): Promise<void>;
}

export async function startApiBenchChild(env: Record<string, string>): Promise<ApiBenchChild> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'api-bench-'));
  const port = await freePort();
  const serve = serveCommand(ROOT);
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'api-bench-server.ts'), [], {
    execArgv: serve.args.filter((arg) => arg.startsWith('--')),
    env: {
      ...process.env,
      ...serve.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SERVER_SECRET: 'api-bench-secret-of-at-least-32-characters',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'error',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`The server exited (${code})`)));
  });
  let stopped: Promise<unknown> | null = null;
  return {
    port,
    dataDir,
    cpuMs: () =>
      new Promise<number>((resolve) => {
        child.once('message', (message: { cpu: NodeJS.CpuUsage }) =>
          resolve((message.cpu.user + message.cpu.system) / 1000),
        );
        child.send({ cpu: true });
      }),
    stop: async () => {
      if (!stopped) {
        stopped = new Promise((resolve) => child.once('exit', resolve));
        child.send({ stop: true });
      }
      await stopped;
    },
    remove: () => rm(dataDir, { recursive: true, force: true }),
  };
}
