import * as argon2 from '@node-rs/argon2';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '#server/http/api-error.ts';
import {
  createPasswords,
  DEFAULT_HASHING,
  defaultHashingLimits,
  type HashingLane,
  OWASP_MINIMUM,
} from './passwords.ts';

const FAST = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

vi.mock('@node-rs/argon2', async (original) => {
  const real = await original<typeof argon2>();
  return { ...real, verify: vi.fn(real.verify) };
});

describe('passwords', () => {
  it('hash with argon2id at or above OWASP’s minimum by default', async () => {
    expect(DEFAULT_HASHING.memoryCost).toBeGreaterThanOrEqual(OWASP_MINIMUM.memoryCost);
    expect(DEFAULT_HASHING.timeCost).toBeGreaterThanOrEqual(OWASP_MINIMUM.timeCost);
    expect(DEFAULT_HASHING.parallelism).toBeGreaterThanOrEqual(OWASP_MINIMUM.parallelism);
    const hash = await createPasswords().hash('correct horse');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,t=3,p=1\$/);
  });

  it('verifies the password, composed or decomposed, and nothing else', async () => {
    const passwords = createPasswords({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
    const hash = await passwords.hash('Zoë secret');
    expect(await passwords.verify(hash, 'Zoë secret')).toBe(true);
    expect(await passwords.verify(hash, 'Zoe\u0308 secret')).toBe(true);
    expect(await passwords.verify(hash, 'zoë secret')).toBe(false);
    expect(await passwords.verify(null, 'Zoë secret')).toBe(false);
    expect(await passwords.verify('not a hash', 'Zoë secret')).toBe(false);
  });

  it('knows a hash made with other parameters', async () => {
    const weak = await createPasswords({ memoryCost: 1024, timeCost: 1, parallelism: 1 }).hash('x');
    expect(createPasswords().needsRehash(weak)).toBe(true);
    expect(createPasswords({ memoryCost: 1024, timeCost: 1, parallelism: 1 }).needsRehash(weak)).toBe(false);
  });

  it('checks an unknown address against a hash of the same cost as a real one, so both take as long', async () => {
    const passwords = createPasswords();
    const verify = vi.mocked(argon2.verify);
    verify.mockClear();
    expect(await passwords.verify(null, 'a password')).toBe(false);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify.mock.calls[0]?.[0]).toMatch(/^\$argon2id\$v=19\$m=65536,t=3,p=1\$/);
  });

  it('hashes a bounded number at once, queues a bounded number, and refuses the rest at once', async () => {
    const passwords = createPasswords(FAST, { concurrency: 2, queue: 3, refusalHoldMs: 0 });
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, n) => passwords.hash(`password ${n}`)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(5);
    for (const result of results.filter((result) => result.status === 'rejected')) {
      const error = (result as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 503, code: 'TOO_MANY_REQUESTS', headers: { 'Retry-After': '2' } });
    }
    // Once the queue has drained, there is room again.
    await expect(passwords.admit()).resolves.toBeUndefined();
    await expect(passwords.hash('later')).resolves.toMatch(/^\$argon2id\$/);
  });

  it('says when it is full before a request does its other work, and verifies in the same queue', async () => {
    const passwords = createPasswords(FAST, { concurrency: 1, queue: 1, refusalHoldMs: 0 });
    const hash = await passwords.hash('secret');
    const first = passwords.verify(hash, 'secret');
    const second = passwords.verify(hash, 'secret');
    // One computing and one waiting: the next is refused before it starts.
    await expect(passwords.admit()).rejects.toBeInstanceOf(ApiError);
    await expect(passwords.verify(hash, 'secret')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(await Promise.all([first, second])).toEqual([true, true]);
  });

  it('serves the known lane first, then the account lane, each with waiting room of its own', async () => {
    const passwords = createPasswords(FAST, { concurrency: 1, queue: 1, refusalHoldMs: 0 });
    const hash = await passwords.hash('secret');
    const finished: string[] = [];
    const track = (name: string, lane: HashingLane) =>
      passwords.verify(hash, 'secret', lane).then((matches) => finished.push(`${name} ${matches}`));
    const running = track('running', 'other');
    const waitingOther = track('waiting other', 'other');
    // The other lane is full; the others still have room, and their requests overtake the one
    // waiting, the known lane first although it came last.
    await expect(passwords.admit('other')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    await expect(passwords.admit('account')).resolves.toBeUndefined();
    const account = track('account', 'account');
    await expect(passwords.admit('account')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    await expect(passwords.admit('known')).resolves.toBeUndefined();
    const known = track('known', 'known');
    expect(passwords.load()).toEqual({ running: 1, waiting: { known: 1, account: 1, other: 1 } });
    await Promise.all([running, waitingOther, account, known]);
    expect(finished).toEqual(['running true', 'known true', 'account true', 'waiting other true']);
  });

  it('holds a refusal before sending it, so a flood that retries at once is slowed down', async () => {
    vi.useFakeTimers();
    try {
      const passwords = createPasswords(FAST, { concurrency: 0, queue: 0, refusalHoldMs: 1_000 });
      let refused = false;
      const admitted = passwords.admit().catch((error: unknown) => {
        refused = error instanceof ApiError && error.code === 'TOO_MANY_REQUESTS';
      });
      await vi.advanceTimersByTimeAsync(999);
      expect(refused).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await admitted;
      expect(refused).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('hashes on half the processors by default, with about a second of waiting room and a held refusal', () => {
    expect(defaultHashingLimits(1)).toEqual({ concurrency: 1, queue: 16, refusalHoldMs: 2_000 });
    expect(defaultHashingLimits(2)).toEqual({ concurrency: 1, queue: 16, refusalHoldMs: 2_000 });
    expect(defaultHashingLimits(8)).toEqual({ concurrency: 4, queue: 64, refusalHoldMs: 2_000 });
  });
});
