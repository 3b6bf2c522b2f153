import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { POOL_NICENESS } from './pool-priority.ts';

/**
 * In a process of its own, so that the test runner's threads keep their priority: lowers the pool's
 * priority (the pool starts with the first file read) and prints each thread's name and nice value (the 19th field of /proc's stat line).
 */
const CHILD = `
  import { readdirSync, readFileSync } from 'node:fs';
  import { access } from 'node:fs/promises';
  import { lowerPoolPriority } from ${JSON.stringify(new URL('./pool-priority.ts', import.meta.url).href)};
  await access('.');
  const lowered = process.argv[1] === 'lower' ? await lowerPoolPriority() : 0;
  const threads = readdirSync('/proc/self/task').map((id) => {
    const stat = readFileSync('/proc/self/task/' + id + '/stat', 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    return { name, nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) };
  });
  console.log(JSON.stringify({ lowered, threads }));
`;

async function threadsAfter(mode: 'lower' | 'keep') {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CHILD, mode]);
  return JSON.parse(stdout) as { lowered: number; threads: { name: string; nice: number }[] };
}

describe.runIf(process.platform === 'linux')("the pool threads' priority", () => {
  it("lowers libuv's pool threads, where hashes run, and no other thread", async () => {
    const { lowered, threads } = await threadsAfter('lower');
    const pool = threads.filter((thread) => thread.name === 'libuv-worker');
    expect(pool.length).toBeGreaterThan(0);
    expect(lowered).toBe(pool.length);
    expect(pool.map((thread) => thread.nice)).toEqual(pool.map(() => POOL_NICENESS));
    expect(threads.filter((thread) => thread.name !== 'libuv-worker').map((thread) => thread.nice)).not.toContain(
      POOL_NICENESS,
    );
  });

  it('leaves them as they are without it', async () => {
    const pool = (await threadsAfter('keep')).threads.filter((thread) => thread.name === 'libuv-worker');
    expect(pool.length).toBeGreaterThan(0);
    expect(pool.map((thread) => thread.nice)).not.toContain(POOL_NICENESS);
  });
});
