/**
 * What waiting for the first paint needs of the browser: `window` in a page, a stand-in in tests.
 * Everything is optional where some browsers lack it.
 */
export interface PaintWindow {
  document: { readyState: string };
  addEventListener(type: 'load', listener: () => void, options?: { once: boolean }): void;
  requestAnimationFrame(callback: () => void): unknown;
  setTimeout(callback: () => void, ms?: number): unknown;
  PerformanceObserver?: {
    new (
      callback: (list: { getEntriesByName(name: string): unknown[] }, observer: { disconnect(): void }) => void,
    ): { observe(options: { type: string; buffered: boolean }): void };
    readonly supportedEntryTypes?: readonly string[];
  };
}

/**
 * Calls `then` once, after the browser has reported the page's first contentful paint (a
 * `PerformanceObserver` entry, which arrives only after the paint was presented) and the load
 * event has fired, and then one more frame: by then all of the prerendered page has been painted,
 * so nothing started afterwards can be counted as needed for it. A browser without paint timing
 * gets the load event and a frame instead. A hidden page does not paint, so it waits until shown.
 * `waitLimitMs` after the load event it stops waiting for a paint that a browser claims to report
 * and never does (a visible page paints long before).
 *
 * It is also part of the app loader's inline script (see document.ts), so its body is plain
 * ES2015 that refers to nothing outside itself.
 */
export function whenPainted(w: PaintWindow, then: () => void, waitLimitMs = 5000): void {
  let painted = false;
  let loaded = false;
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    w.requestAnimationFrame(() => {
      w.setTimeout(then, 0);
    });
  };
  const check = () => {
    if (painted && loaded) run();
  };
  const Observer = w.PerformanceObserver;
  const reportsPaint = !!Observer && (Observer.supportedEntryTypes || []).indexOf('paint') >= 0;
  const onLoad = () => {
    loaded = true;
    if (!reportsPaint) painted = true;
    else
      w.setTimeout(() => {
        painted = true;
        check();
      }, waitLimitMs);
    check();
  };
  if (reportsPaint && Observer) {
    new Observer((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) {
        observer.disconnect();
        painted = true;
        check();
      }
    }).observe({ type: 'paint', buffered: true });
  }
  if (w.document.readyState === 'complete') onLoad();
  else w.addEventListener('load', onLoad, { once: true });
}
