import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whenQuiet } from './quiet.ts';

const TIMES = { minMs: 3_000, quietMs: 2_000, maxMs: 20_000 };

/** A long-task observer the test feeds by hand. */
function longTasks(supported: boolean) {
  const callbacks: ((list: { getEntries(): { startTime: number; duration: number }[] }) => void)[] = [];
  class FakeObserver {
    static supportedEntryTypes = supported ? ['longtask', 'paint'] : ['paint'];
    constructor(callback: (typeof callbacks)[number]) {
      callbacks.push(callback);
    }
    observe() {}
    disconnect() {}
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  return (duration: number) => {
    const task = { startTime: performance.now(), duration };
    for (const callback of callbacks) callback({ getEntries: () => [task] });
  };
}

describe('whenQuiet', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('starts at the earliest time when the page has been quiet', () => {
    longTasks(true);
    const callback = vi.fn();
    whenQuiet(callback, TIMES);
    vi.advanceTimersByTime(2_999);
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('waits until the main thread has had no long task for a while', () => {
    const task = longTasks(true);
    const callback = vi.fn();
    whenQuiet(callback, TIMES);
    vi.advanceTimersByTime(2_500);
    task(300);
    vi.advanceTimersByTime(500);
    expect(callback).not.toHaveBeenCalled();
    // 2 s after the end of that task.
    vi.advanceTimersByTime(1_799);
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('does not wait for ever on a page that never quiets down', () => {
    const task = longTasks(true);
    const callback = vi.fn();
    whenQuiet(callback, TIMES);
    for (let t = 0; t < 19_000; t += 1_000) {
      vi.advanceTimersByTime(1_000);
      task(60);
    }
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('takes the earliest time where long tasks are not reported, and can be cancelled', () => {
    longTasks(false);
    const callback = vi.fn();
    whenQuiet(callback, TIMES);
    vi.advanceTimersByTime(3_000);
    expect(callback).toHaveBeenCalledTimes(1);

    const cancelled = vi.fn();
    whenQuiet(cancelled, TIMES)();
    vi.advanceTimersByTime(30_000);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
