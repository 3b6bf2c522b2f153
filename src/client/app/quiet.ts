/** When the heavy work of a visit may start: see whenQuiet. */
export interface QuietTimes {
  /** Never sooner than this after the call. */
  minMs: number;
  /** The main thread must have had no long task for this long. */
  quietMs: number;
  /** Never later than this after the call, quiet or not. */
  maxMs: number;
}

/**
 * Computing a fingerprint takes several long tasks on a slow phone (decision 025). Started at a
 * fixed time after the page, they may land while the page is still busy on a slow or loaded
 * device, which is also when a page-load measurement is still watching. So the work waits for a
 * quiet main thread: `minMs` after the call and `quietMs` after the last long task (as a
 * `longtask` PerformanceObserver reports them), or `maxMs` at the latest. Browsers that do not
 * report long tasks get `minMs`. Returns a function that cancels.
 */
export function whenQuiet(callback: () => void, times: QuietTimes): () => void {
  const start = performance.now();
  let lastBusy = start;
  let observer: PerformanceObserver | null = null;
  if (PerformanceObserver.supportedEntryTypes?.includes('longtask')) {
    observer = new PerformanceObserver((list) => {
      for (const task of list.getEntries()) lastBusy = Math.max(lastBusy, task.startTime + task.duration);
    });
    observer.observe({ type: 'longtask', buffered: true });
  }
  let timer: ReturnType<typeof setTimeout>;
  const check = () => {
    const now = performance.now();
    const quiet = observer === null || now - lastBusy >= times.quietMs;
    if (now - start >= times.maxMs || (now - start >= times.minMs && quiet)) {
      observer?.disconnect();
      callback();
      return;
    }
    const wait = Math.max(times.minMs - (now - start), times.quietMs - (now - lastBusy), 50);
    timer = setTimeout(check, Math.min(wait, times.maxMs - (now - start)));
  };
  timer = setTimeout(check, times.minMs);
  return () => {
    clearTimeout(timer);
    observer?.disconnect();
  };
}
