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
    return { name, main: id === String(process.pid), nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) };
  });
  console.log(JSON.stringify({ lowered, threads }));
`;

/** The child's threads after `mode`, the child started `nice` steps below this process. */
async function threadsAfter(mode: 'lower' | 'keep', nice = 0) {
  const { stdout } = await promisify(execFile)('nice', [
    '-n',
    String(nice),
    process.execPath,
    '--input-type=module',
    '-e',
    CHILD,
    mode,
  ]);
  const { lowered, threads } = JSON.parse(stdout) as {
    lowered: number;
    threads: { name: string; main: boolean; nice: number }[];
  };
  return {
    lowered,
    own: threads.find((thread) => thread.main)?.nice ?? Number.NaN,
    pool: threads.filter((thread) => thread.name === 'libuv-worker').map((thread) => thread.nice),
    others: threads.filter((thread) => thread.name !== 'libuv-worker').map((thread) => thread.nice),
  };
}

describe.runIf(process.platform === 'linux')("the pool threads' priority", () => {
  it("lowers libuv's pool threads, where hashes run, and no other thread", async () => {
    const { lowered, own, pool, others } = await threadsAfter('lower');
    expect(pool.length).toBeGreaterThan(0);
    expect(lowered).toBe(pool.length);
    expect(pool).toEqual(pool.map(() => Math.min(19, own + POOL_NICENESS)));
    expect(others).toEqual(others.map(() => own));
  });

  it("counts from the server's own nice value, which its service may have set", async () => {
    const base = (await threadsAfter('keep')).own;
    const { own, pool } = await threadsAfter('lower', 5);
    expect(own).toBe(Math.min(19, base + 5));
    expect(pool).toEqual(pool.map(() => Math.min(19, own + POOL_NICENESS)));
  });

  it('leaves them as they are without it', async () => {
    const { own, pool } = await threadsAfter('keep');
    expect(pool.length).toBeGreaterThan(0);
    expect(pool).toEqual(pool.map(() => own));
  });
});
