import { readdir, readFile } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';

/** How many steps of nice the pool's threads are set below the server's own thread (Linux caps it at 19). */
export const POOL_NICENESS = 10;

/**
 * Lowers the priority of libuv's pool threads, where password hashes run (decision 263): on a
 * host whose processors are all busy (a sign-in flood), the thread that serves pages is scheduled
 * first, and hashing takes what is left; on an idle host nothing changes. Linux names the pool's
 * threads `libuv-worker` and takes a thread's id where a process id is asked for. Elsewhere, or
 * where the threads cannot be read, it does nothing.
 */
export async function lowerPoolPriority(niceness = POOL_NICENESS): Promise<void> {
  if (process.platform !== 'linux') return;
  try {
    // Relative to the server's own nice value, which its service may have set: never above it.
    const target = Math.min(19, getPriority() + niceness);
    for (const thread of await readdir('/proc/self/task')) {
      const name = await readFile(`/proc/self/task/${thread}/comm`, 'utf8').catch(() => '');
      if (name.trim() !== 'libuv-worker') continue;
      setPriority(Number(thread), target);
    }
  } catch {
    // Without /proc, or without the right to change a thread's priority, hashing keeps its own.
  }
}
