import { describe, expect, it } from 'vitest';
import { withRetries } from './with-retries.ts';

/** A load that fails `failures` times, then answers; it counts its calls. */
function flaky(failures: number) {
  const load = async () => {
    load.calls += 1;
    if (load.calls <= failures) throw new TypeError('Failed to fetch dynamically imported module');
    return { open: 'Chat with us' };
  };
  load.calls = 0;
  return load;
}

describe('withRetries', () => {
  it('answers at once when the first try works', async () => {
    const load = flaky(0);
    await expect(withRetries(load, [0, 0])).resolves.toEqual({ open: 'Chat with us' });
    expect(load.calls).toBe(1);
  });

  it('tries again after each failure until one works', async () => {
    const load = flaky(2);
    await expect(withRetries(load, [0, 0, 0])).resolves.toEqual({ open: 'Chat with us' });
    expect(load.calls).toBe(3);
  });

  it('gives the last failure once every delay is spent', async () => {
    const load = flaky(5);
    await expect(withRetries(load, [0, 0])).rejects.toThrow('Failed to fetch');
    expect(load.calls).toBe(3);
  });

  it('waits the given delay before trying again', async () => {
    const load = flaky(1);
    const started = performance.now();
    await withRetries(load, [40]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
  });
});
