// Starts api-bench-server.ts in a child process as `npm run serve` starts the server (its
// environment and Node flags, decision 230), on PGlite in a temporary folder or on the PostgreSQL
// of DATABASE_URL, for the benches that load it from outside (`bench:fingerprint`, `bench:ingest`,
// `bench:chat`).
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveCommand } from '#deploy/serve-command.ts';
import { ROOT } from '#server/platform/site-config.ts';
import { freePort } from '#tests/support/instances.ts';

export interface ApiBenchChild {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Where PGlite keeps its files (unused with DATABASE_URL); removed by `remove`. */
  dataDir: string;
  /** The server's processor time so far, in ms (user and system, every thread). */
  cpuMs(): Promise<number>;
  /** The server's memory right after a garbage collection. */
  memory(): Promise<NodeJS.MemoryUsage>;
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
    // --expose-gc lets the server collect garbage before it reports its memory; it changes nothing else.
    execArgv: [...serve.args.filter((arg) => arg.startsWith('--')), '--expose-gc'],
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
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  /** The next answer that carries `key`, or an error if the server ends first. */
  const next = <T>(key: string): Promise<T> =>
    Promise.race([
      exited.then((code) => Promise.reject(new Error(`The server exited (${code})`))),
      new Promise<T>((resolve) => {
        const onMessage = (message: Record<string, unknown>) => {
          if (!(key in message)) return;
          child.off('message', onMessage);
          resolve(message[key] as T);
        };
        child.on('message', onMessage);
      }),
    ]);
  const ask = <T>(key: 'cpu' | 'memory') => {
    const answer = next<T>(key);
    child.send({ [key]: true });
    return answer;
  };
  await next('listening');
  let stopped = false;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    cpuMs: async () => {
      const cpu = await ask<NodeJS.CpuUsage>('cpu');
      return (cpu.user + cpu.system) / 1000;
    },
    memory: () => ask<NodeJS.MemoryUsage>('memory'),
    stop: async () => {
      if (!stopped) child.send({ stop: true });
      stopped = true;
      await exited;
    },
    remove: () => rm(dataDir, { recursive: true, force: true }),
  };
}
