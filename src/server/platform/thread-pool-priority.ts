import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * The thread pool's niceness: 10 is a tenth of the processor share of a thread at 0 (the
 * scheduler's weights 110 against 1,024) when both want the processor, and changes nothing when one
 * is free.
 */
const POOL_NICENESS = 10;

/**
 * Lowers libuv's thread pool below the main thread, which answers every request. Password hashes
 * run in that pool (tens of milliseconds each); during a flood of sign-ins they would otherwise take
 * the processor from the pages as often as from anything else (docs/decisions/255). The pool also
 * reads files, compresses and resolves names, none of them on a request's way here. Linux only,
 * where each thread has a niceness of its own and /proc lists them (threads named `libuv-worker`);
 * elsewhere it does nothing. The pool's threads start with its first task, so call it after one.
 * Returns how many threads it lowered.
 */
export function lowerThreadPoolPriority(): number {
  let threads: string[];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  let lowered = 0;
  for (const thread of threads) {
    try {
      if (readFileSync(`/proc/self/task/${thread}/comm`, 'utf8').trim() !== 'libuv-worker') continue;
      setPriority(Number(thread), POOL_NICENESS);
      lowered++;
    } catch {
      // A thread that ended while the list was read.
    }
  }
  return lowered;
}
