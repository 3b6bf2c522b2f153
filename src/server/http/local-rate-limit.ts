import type { RateLimitResult } from './rate-limit-counter.ts';

/**
 * The most subjects one process keeps a window for. Past it the oldest windows are forgotten (a Map
 * keeps its insertion order). Windows that ended are forgotten as new ones begin: at a thousand new
 * clients a second and one-minute windows a process holds about 60,000, a few megabytes.
 */
const MAX_WINDOWS = 200_000;

/**
 * Fixed windows counted in this process's memory, for limits that protect only this instance's
 * processor (docs/decisions/173): no statement per request, and nothing written anywhere.
 */
export function createLocalCounter(now: () => number = Date.now) {
  const windows = new Map<string, { hits: number; endsAt: number }>();
  return {
    hit(key: string, limit: number, windowSeconds: number): RateLimitResult {
      const at = now();
      let window = windows.get(key);
      if (!window || window.endsAt <= at) {
        windows.delete(key);
        window = { hits: 0, endsAt: at + windowSeconds * 1000 };
        windows.set(key, window);
        // Oldest first: those that ended, and any past the bound.
        for (const [oldest, { endsAt }] of windows) {
          if (endsAt > at && windows.size <= MAX_WINDOWS) break;
          windows.delete(oldest);
        }
      }
      // Stops one above the limit, as the shared counter does.
      window.hits = Math.min(window.hits, limit) + 1;
      if (window.hits <= limit) return { allowed: true, retryAfterSeconds: 0 };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - at) / 1000)) };
    },
    get size() {
      return windows.size;
    },
  };
}
