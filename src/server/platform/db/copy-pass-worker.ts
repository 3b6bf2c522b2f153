// Copies the embedded database's folder while it works on (see pglite-snapshot.ts), in a worker
// thread: a first pass, then, once the server has written what the database kept in memory to the
// files, a second pass for what changed meanwhile; it hands back what it copied for the held pass.
import { parentPort, workerData } from 'node:worker_threads';
import { type Copied, copyPass } from './copy-pass.ts';

/** A few files at a time: enough for the disk, and the visitors' requests keep the processor. */
const CONCURRENCY = 4;

const { source, target } = workerData as { source: string; target: string };
const copied = new Map<string, Copied>();
let bytes = await copyPass(source, target, copied, CONCURRENCY);
parentPort?.postMessage({ step: 'first pass' });
await new Promise((resolve) => parentPort?.once('message', resolve));
bytes += await copyPass(source, target, copied, CONCURRENCY);
parentPort?.postMessage({ copied, bytes });
