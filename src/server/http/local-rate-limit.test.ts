import { describe, expect, it } from 'vitest';
import { createLocalCounter } from './local-rate-limit.ts';

describe('the in-process rate limit counter', () => {
  it('allows the limit in a window, refuses the rest until the window ends, then starts again', () => {
    let now = 1_000_000;
    const counter = createLocalCounter(() => now);
    const hits = () => Array.from({ length: 4 }, () => counter.hit('fingerprint:192.0.2.1', 3, 60));
    expect(hits().map((result) => result.allowed)).toEqual([true, true, true, false]);
    now += 45_500;
    expect(counter.hit('fingerprint:192.0.2.1', 3, 60)).toEqual({ allowed: false, retryAfterSeconds: 15 });
    // Someone else has a window of their own.
    expect(counter.hit('fingerprint:192.0.2.2', 3, 60).allowed).toBe(true);
    now += 14_500;
    expect(hits().map((result) => result.allowed)).toEqual([true, true, true, false]);
  });

  it('forgets the oldest windows past its bound, so a flood of new addresses cannot fill the memory', () => {
    const counter = createLocalCounter(() => 0);
    for (let n = 0; n < 200_010; n++) counter.hit(`fingerprint:${n}`, 1, 60);
    expect(counter.size).toBe(200_000);
    // The first address's window was forgotten: it starts a new one.
    expect(counter.hit('fingerprint:0', 1, 60).allowed).toBe(true);
    expect(counter.hit('fingerprint:200009', 1, 60).allowed).toBe(false);
  });

  it('forgets windows that ended as new ones begin', () => {
    let now = 0;
    const counter = createLocalCounter(() => now);
    for (let n = 0; n < 1_000; n++) counter.hit(`fingerprint:${n}`, 1, 60);
    now = 30_000;
    for (let n = 1_000; n < 1_500; n++) counter.hit(`fingerprint:${n}`, 1, 60);
    expect(counter.size).toBe(1_500);
    // A minute after the first thousand began, the next new client's window lets theirs go.
    now = 60_000;
    counter.hit('fingerprint:new', 1, 60);
    expect(counter.size).toBe(501);
  });
});
