import { describe, expect, it } from 'vitest';
import { BOOT_ELEMENT_ID } from './boot-data.ts';
import { APP_LOADER_SCRIPT, showOwnAddress } from './document.ts';
import { type PaintWindow, whenPainted } from './first-paint.ts';

/**
 * A browser in miniature: the load event, frames, timers and paint entries happen when the test
 * says so, in that order, as they can in a real browser on a busy machine (load before paint).
 */
function browser(options: { paintTiming?: boolean; readyState?: string } = {}) {
  const loadListeners: (() => void)[] = [];
  const frames: (() => void)[] = [];
  const timers: { ms: number; callback: () => void }[] = [];
  const observers: ((list: { getEntriesByName(name: string): unknown[] }, observer: { disconnect(): void }) => void)[] =
    [];
  const paints: string[] = [];
  let disconnected = 0;
  class FakeObserver {
    static supportedEntryTypes = options.paintTiming === false ? ['navigation'] : ['navigation', 'paint'];
    readonly callback: (typeof observers)[number];
    constructor(callback: (typeof observers)[number]) {
      this.callback = callback;
    }
    observe(init: { type: string; buffered: boolean }) {
      expect(init).toEqual({ type: 'paint', buffered: true });
      observers.push(this.callback);
      // Buffered: entries from before the observer was made are delivered too.
      if (paints.length > 0) this.deliver();
    }
    deliver() {
      this.callback(
        { getEntriesByName: (name) => paints.filter((paint) => paint === name) },
        { disconnect: () => (disconnected += 1) },
      );
    }
  }
  const w: PaintWindow = {
    document: { readyState: options.readyState ?? 'interactive' },
    addEventListener: (_type, listener) => loadListeners.push(listener),
    requestAnimationFrame: (callback) => frames.push(callback),
    setTimeout: (callback, ms = 0) => timers.push({ ms, callback }),
    PerformanceObserver: options.paintTiming === undefined || options.paintTiming ? FakeObserver : undefined,
  };
  return {
    w,
    load: () => {
      w.document.readyState = 'complete';
      for (const listener of loadListeners.splice(0)) listener();
    },
    paint: (name: string) => {
      paints.push(name);
      for (const callback of observers) {
        callback(
          { getEntriesByName: (wanted) => (wanted === name ? [name] : []) },
          { disconnect: () => (disconnected += 1) },
        );
      }
    },
    /** Runs the pending frame callbacks, then the timers of up to `ms` they or others set. */
    frame: () => {
      for (const callback of frames.splice(0)) callback();
    },
    timersUpTo: (ms: number) => {
      for (const timer of timers.filter((t) => t.ms <= ms)) {
        timers.splice(timers.indexOf(timer), 1);
        timer.callback();
      }
    },
    get disconnected() {
      return disconnected;
    },
  };
}

/** Runs a browser's frame and the zero-delay timers it leaves, as the event loop would. */
const settle = (b: ReturnType<typeof browser>) => {
  b.frame();
  b.timersUpTo(0);
};

describe('whenPainted', () => {
  it('waits for the reported first contentful paint, even when the load event came first', () => {
    const b = browser();
    let called = 0;
    whenPainted(b.w, () => (called += 1));
    b.load();
    settle(b);
    expect(called).toBe(0);
    b.paint('first-paint');
    settle(b);
    expect(called).toBe(0);
    b.paint('first-contentful-paint');
    expect(called).toBe(0);
    settle(b);
    expect(called).toBe(1);
    expect(b.disconnected).toBe(1);
  });

  it('waits for the load event when the paint came first, then for one more frame', () => {
    const b = browser();
    let called = 0;
    whenPainted(b.w, () => (called += 1));
    b.paint('first-contentful-paint');
    settle(b);
    expect(called).toBe(0);
    b.load();
    b.timersUpTo(0);
    expect(called).toBe(0);
    settle(b);
    expect(called).toBe(1);
  });

  it('takes a paint reported before it was asked (buffered entries), on a page already loaded', () => {
    const b = browser({ readyState: 'complete' });
    b.paint('first-contentful-paint');
    let called = 0;
    whenPainted(b.w, () => (called += 1));
    settle(b);
    expect(called).toBe(1);
  });

  it('falls back to the load event and a frame without paint timing', () => {
    for (const b of [browser({ paintTiming: false }), browser({ paintTiming: false, readyState: 'interactive' })]) {
      let called = 0;
      whenPainted(b.w, () => (called += 1));
      settle(b);
      expect(called).toBe(0);
      b.load();
      settle(b);
      expect(called).toBe(1);
    }
  });

  it('stops waiting for a paint that never comes some time after the load event, and calls once', () => {
    const b = browser();
    let called = 0;
    whenPainted(b.w, () => (called += 1), 5000);
    b.load();
    b.timersUpTo(4999);
    settle(b);
    expect(called).toBe(0);
    b.timersUpTo(5000);
    settle(b);
    expect(called).toBe(1);
    b.paint('first-contentful-paint');
    settle(b);
    expect(called).toBe(1);
  });
});

describe('the app loader script', () => {
  it('adds the preloads a few per task only after the reported paint, then the entry module', () => {
    const b = browser();
    const added: Record<string, string>[] = [];
    const preloads = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => `/assets/${name}.js`);
    Object.assign(b.w.document, {
      head: { append: (element: Record<string, string>) => added.push({ ...element }) },
      createElement: (tag: string) => ({ tag }),
      getElementById: (id: string) =>
        id === BOOT_ELEMENT_ID ? { dataset: { modules: ['/assets/entry.js', ...preloads].join(' ') } } : null,
    });
    new Function('window', APP_LOADER_SCRIPT)(b.w);
    b.load();
    settle(b);
    expect(added).toEqual([]);
    b.paint('first-contentful-paint');
    settle(b);
    const preload = (href: string) => ({ tag: 'link', rel: 'modulepreload', href });
    expect(added).toEqual(preloads.slice(0, 3).map(preload));
    b.timersUpTo(0);
    expect(added).toEqual(preloads.slice(0, 6).map(preload));
    b.timersUpTo(0);
    expect(added).toEqual([...preloads.map(preload), { tag: 'script', type: 'module', src: '/assets/entry.js' }]);
    b.timersUpTo(0);
    expect(added).toHaveLength(8);
  });

  it('adds the entry module alone when there is nothing to preload', () => {
    const b = browser();
    const added: Record<string, string>[] = [];
    Object.assign(b.w.document, {
      head: { append: (element: Record<string, string>) => added.push({ ...element }) },
      createElement: (tag: string) => ({ tag }),
      getElementById: () => ({ dataset: { modules: '/assets/entry.js' } }),
    });
    new Function('window', APP_LOADER_SCRIPT)(b.w);
    b.load();
    b.paint('first-contentful-paint');
    settle(b);
    expect(added).toEqual([{ tag: 'script', type: 'module', src: '/assets/entry.js' }]);
  });
});

describe("the page's own address", () => {
  const page = (own: string | undefined, location: { pathname: string; search: string; hash: string }) => {
    const replaced: unknown[][] = [];
    const w = {
      document: { getElementById: (id: string) => (id === BOOT_ELEMENT_ID ? { dataset: { path: own } } : null) },
      location,
      history: { replaceState: (...args: unknown[]) => replaced.push(args) },
    } as unknown as Window;
    showOwnAddress(w, BOOT_ELEMENT_ID);
    return replaced;
  };

  it('replaces an address the page was answered for, keeping the query and fragment and what was asked', () => {
    expect(page('/fr/login', { pathname: '/fr/account', search: '?a=1', hash: '#x' })).toEqual([
      [{ state: { askedFor: '/fr/account' } }, '', '/fr/login?a=1#x'],
    ]);
  });

  it("leaves the address alone when it is the page's own, or the page names none", () => {
    expect(page('/fr/login', { pathname: '/fr/login', search: '', hash: '' })).toEqual([]);
    expect(page(undefined, { pathname: '/fr/account', search: '', hash: '' })).toEqual([]);
  });
});
