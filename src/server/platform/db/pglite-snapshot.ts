import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ROOT } from '#server/platform/site-config.ts';
import { type Copied, copyPass } from './copy-pass.ts';
import { restrictTree, syncTree } from './data-dir.ts';

const HELD_CONCURRENCY = 16;

/** What a snapshot of the embedded database copied, and how long the database waited for it. */
export interface SnapshotReport {
  files: number;
  bytes: number;
  /** How long the database answered nothing while the last changes were copied. */
  heldMs: number;
  totalMs: number;
}

/**
 * The passes made while the database works on, in a thread of their own: in the server's thread
 * each file would wait for a turn of an event loop busy with requests and the database's flushes
 * (a folder of a thousand files took 14 s instead of 1 s under writes). Between them, `flush`
 * writes what the database keeps in memory to its files (a checkpoint), so that the second pass
 * copies those writes while the database works on, and the held pass finds little left.
 */
function passesInWorker(
  source: string,
  target: string,
  flush: () => Promise<void>,
): Promise<{ copied: Map<string, Copied>; bytes: number }> {
  // From the source, also when the server runs from its build (dist/server): Node strips its types.
  const worker = new Worker(path.join(ROOT, 'src/server/platform/db/copy-pass-worker.ts'), {
    workerData: { source, target },
  });
  return new Promise((resolve, reject) => {
    worker.on('message', (message: { step: string } | { copied: Map<string, Copied>; bytes: number }) => {
      if (!('step' in message)) return resolve(message);
      flush().then(
        () => worker.postMessage('go on'),
        (error: unknown) => {
          void worker.terminate();
          reject(error);
        },
      );
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The copy stopped (${code})`)));
  });
}

/**
 * A consistent copy of the embedded database's folder `source` in `target` (which must not exist)
 * while the server keeps serving. Two passes copy the files while the database works on (what they
 * copy may be half-written), with a checkpoint (`flush`) between them; then, with the database held
 * (`hold` runs its function while no statement runs, docs/decisions/170), one last pass copies
 * every file written since its copy. What lands in `target` is then exactly the folder at that
 * moment, as a power cut would have left it, which PostgreSQL opens by replaying its write-ahead
 * log from that checkpoint on.
 */
export async function snapshotFolder(
  source: string,
  target: string,
  hold: <T>(work: () => Promise<T>) => Promise<T>,
  flush: () => Promise<void>,
): Promise<SnapshotReport> {
  const started = performance.now();
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  await mkdir(target, { mode: 0o700 });
  try {
    const { copied, bytes: copiedAhead } = await passesInWorker(source, target, flush);
    let bytes = copiedAhead;
    let heldMs = 0;
    bytes += await hold(async () => {
      const held = performance.now();
      try {
        // Here the database waits: as many files at once as the disk takes.
        return await copyPass(source, target, copied, HELD_CONCURRENCY);
      } finally {
        heldMs = performance.now() - held;
      }
    });
    await restrictTree(target);
    await syncTree(target);
    return { files: copied.size, bytes, heldMs, totalMs: performance.now() - started };
  } catch (error) {
    await rm(target, { recursive: true, force: true });
    throw error;
  }
}
