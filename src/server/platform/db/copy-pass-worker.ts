// Copies the embedded database's folder twice while it works on (see pglite-snapshot.ts), in a
// worker thread, and hands back what it copied for the last pass.
import { parentPort, workerData } from 'node:worker_threads';
import { type Copied, copyPass } from './copy-pass.ts';

const { source, target } = workerData as { source: string; target: string };
const copied = new Map<string, Copied>();
let bytes = await copyPass(source, target, copied);
// What changed during the first pass, which took a while: the held pass then has little left.
bytes += await copyPass(source, target, copied);
parentPort?.postMessage({ copied, bytes });
