import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { threadPriorities } from '#tests/support/thread-priorities.ts';
import { POOL_NICENESS } from './pool-priority.ts';

/**
 * A process of its own, so that the test runner's threads keep their priority: it reads a file
 * (which starts libuv's pool), lowers the pool's priority when told to, says so, and waits.
 */
const CHILD = `
  import { access } from 'node:fs/promises';
  import { lowerPoolPriority } from ${JSON.stringify(new URL('./pool-priority.ts', import.meta.url).href)};
  await access('.');
  if (process.argv[1] === 'lower') await lowerPoolPriority();
  console.log('ready');
  process.stdin.resume();
`;

/** The priorities of such a process's threads, started `nice` steps below this process. */
async function threadsAfter(mode: 'lower' | 'keep', nice = 0) {
  const child = spawn('nice', ['-n', String(nice), process.execPath, '--input-type=module', '-e', CHILD, mode]);
  try {
    await once(child.stdout, 'data');
    // `nice` runs Node in its own place, so the child's id is Node's.
    return threadPriorities(child.pid as number);
  } finally {
    child.kill();
  }
}

describe.runIf(process.platform === 'linux')("the pool threads' priority", () => {
  it("lowers libuv's pool threads, where hashes run, and no other thread", async () => {
    const { own, pool, others } = await threadsAfter('lower');
    expect(pool.length).toBeGreaterThan(0);
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
