import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { lowerThreadPoolPriority } from './thread-pool-priority.ts';

/** Each thread of this process by name, with its niceness (the 19th field of its stat line). */
function threads() {
  return readdirSync('/proc/self/task').map((id) => {
    const stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
    // The name, in parentheses, may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { name: readFileSync(`/proc/self/task/${id}/comm`, 'utf8').trim(), nice: Number(fields[16]) };
  });
}

// Threads with a niceness of their own, listed in /proc, are Linux's; elsewhere the function does nothing.
it.runIf(process.platform === 'linux')('runs the thread pool below the main thread, and only the pool', async () => {
  await readFile(import.meta.filename); // the pool's threads start with its first task
  const before = threads().find((thread) => thread.name === 'MainThread')?.nice;
  expect(lowerThreadPoolPriority()).toBeGreaterThan(0);
  const after = threads();
  const pool = after.filter((thread) => thread.name === 'libuv-worker');
  expect(pool.length).toBeGreaterThan(0);
  expect(pool.map((thread) => thread.nice)).toEqual(pool.map(() => 10));
  expect(after.find((thread) => thread.name === 'MainThread')?.nice).toBe(before);
});
