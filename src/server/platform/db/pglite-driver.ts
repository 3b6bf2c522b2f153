import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { ROOT } from '#server/platform/site-config.ts';
import { lockDataDir, restrictTree, syncTree } from './data-dir.ts';
import type { DatabaseTimeouts, Driver } from './driver.ts';
import { createGate } from './gate.ts';
import { checkChannel, notifyIn, Subscribers } from './listener.ts';
import { compiledPglite, releaseFileBundle } from './pglite-bundle.ts';
import { snapshotFolder } from './pglite-snapshot.ts';

/**
 * PostgreSQL's settings for the embedded database: PGlite's own, changed for durability and memory.
 *
 * Durability: PGlite turns fsync off (`-F`), so a power cut could lose commits that were already
 * acknowledged (a killed process loses nothing: the operating system still writes what it was
 * given). Here fsync is on, and the write-ahead log is flushed with fsync(), the one call the
 * WebAssembly file layer passes on to the disk (see DurableNodeFS; its fdatasync does nothing).
 *
 * Memory: PostgreSQL's shared memory lives in PGlite's WebAssembly memory, which never shrinks,
 * and PGlite writes all of it at start, so every megabyte of it stays resident. The shared buffers
 * (128 MB by default) are 8 MB, since the operating system caches the files as well. One process
 * serves every query, so the tables sized by max_connections are sized for 10, not 100 (a transaction
 * that creates 400 tables still runs). Decisions 004 and 261 have the measurements.
 */
const START_PARAMS = [
  ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
  '-c',
  'fsync=on',
  '-c',
  'wal_sync_method=fsync',
  '-c',
  'shared_buffers=8MB',
  '-c',
  'max_connections=10',
];

/**
 * Creates a new database in `folder` in a child process, which takes PGlite's memory for that with
 * it. V8 optimises its WebAssembly only where it runs a lot, as `npm run serve` has it for the
 * server: optimising PostgreSQL's large functions while it starts took some 500 MB for a few
 * seconds (docs/decisions/174-an-idle-server-in-less-memory.md).
 */
async function createInChild(folder: string): Promise<void> {
  // From the source, also when the server runs from its build (dist/server): Node strips its types.
  const script = path.join(ROOT, 'src/server/platform/db/create-pglite.ts');
  const child = spawn(process.execPath, ['--wasm-tiering-budget=1000000000', script, folder], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`Creating the embedded database in ${folder} failed: ${errors.trim().slice(0, 500)}`);
}

type PostgresMod = Parameters<NodeFS['init']>[1];

interface EmscriptenNodeFs {
  stream_ops: { fsync?: (stream: { nfd?: number }) => number };
  tryFSOperation<T>(operation: () => T): T;
}

/**
 * PGlite's Node file system, with fsync passed on to the disk. Emscripten's layer over Node's `fs`
 * has no fsync of its own, so PostgreSQL's fsync() returned at once having done nothing.
 */
class DurableNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Partial<PostgresMod>) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const makeDurable = (mod: PostgresMod) => {
      const nodefs = (mod as unknown as { NODEFS: EmscriptenNodeFs }).NODEFS;
      nodefs.stream_ops.fsync = (stream) => {
        // A failed fsync is an error PostgreSQL must see (it stops rather than trust the data).
        if (stream.nfd !== undefined) nodefs.tryFSOperation(() => fs.fsyncSync(stream.nfd as number));
        return 0;
      };
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), makeDurable] } };
  }
}

export async function openPglite(dataDir: string, timeouts: DatabaseTimeouts): Promise<Driver> {
  const folder = path.join(dataDir, 'pglite');
  // Before anything touches the files: a second process on them would lose data.
  const lock = await lockDataDir(dataDir);
  let db: PGlite;
  try {
    const fresh = await access(path.join(folder, 'PG_VERSION')).then(
      () => false,
      () => true,
    );
    if (fresh) await createInChild(folder);
    db = await PGlite.create({
      fs: new DurableNodeFS(folder),
      startParams: START_PARAMS,
      pgliteWasmModule: await compiledPglite(),
    });
    releaseFileBundle(db);
    // PGlite writes a new database's files readable and writable by everyone, and without fsync.
    await restrictTree(folder);
    if (fresh) await syncTree(folder);
  } catch (error) {
    await lock.release();
    throw error;
  }
  // One operation at a time, as PGlite runs them anyway, so that none waits without a limit.
  const gate = createGate(1);
  const wait = timeouts.connectMs + timeouts.statementMs;
  // PGlite has one connection and no network: what it hears, it hears in this process, and it
  // cannot lose its connection, so no resync is ever needed.
  const subscribers = new Subscribers();
  const stops = new Map<string, () => Promise<void>>();

  const driver: Driver = {
    kind: 'pglite',
    query: <T>(sql: string, params?: unknown[]) => gate(wait, async () => (await db.query<T>(sql, params)).rows),
    transaction: (fn) =>
      gate(wait, () =>
        db.transaction((tx) =>
          fn({
            query: async <T>(sql: string, params?: unknown[]) => (await tx.query<T>(sql, params)).rows,
            exec: async (sql) => {
              await tx.exec(sql);
            },
          }),
        ),
      ),
    ping: (timeoutMs) =>
      gate(timeoutMs, async () => {
        await db.query('SELECT 1');
        return true;
      }).catch(() => false),
    close: async () => {
      try {
        // Whatever is under way finishes first.
        await gate(null, () => db.close());
        await restrictTree(folder);
      } finally {
        await lock.release();
      }
    },
    listen: async (channel, handler, options = {}) => {
      checkChannel(channel);
      const subscription = subscribers.add(channel, handler, options);
      if (subscription.first) {
        const stop = await gate(wait, () => db.listen(channel, (payload) => subscribers.deliver(channel, payload)));
        stops.set(channel, stop);
      }
      return async () => {
        if (!subscription.remove()) return;
        const stop = stops.get(channel);
        stops.delete(channel);
        if (stop && !db.closed) await gate(wait, stop);
      };
    },
    notify: (channel, payload) => notifyIn(driver, channel, payload),
    usage: () => {
      const { running, waiting } = gate.load();
      return { inUse: running, idle: 1 - running, waiting, max: 1 };
    },
    // Held through the gate: no statement runs during the checkpoint, nor while the last changes are copied.
    snapshot: (target) =>
      snapshotFolder(
        folder,
        target,
        (work) => gate(null, work),
        () => gate(null, async () => void (await db.exec('CHECKPOINT'))),
      ),
  };
  return driver;
}
