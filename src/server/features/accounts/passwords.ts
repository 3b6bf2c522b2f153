import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { ApiError } from '#server/http/api-error.ts';
import type { HashingLoad } from '#server/platform/metrics.ts';

export interface HashingParams {
  /** KiB of memory per hash. */
  memoryCost: number;
  /** Passes over that memory. */
  timeCost: number;
  parallelism: number;
}

/** OWASP's minimum for argon2id (Password Storage Cheat Sheet): 19 MiB, 2 passes, 1 lane. */
export const OWASP_MINIMUM: HashingParams = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * What the server uses: above OWASP's minimum, at the memory and passes of RFC 9106's second
 * recommendation (64 MiB, 3 passes), in one lane so that a hash occupies one thread. About 60 ms
 * per hash on the development machine (see docs/decisions). Only tests pass weaker parameters,
 * explicitly, to run fast.
 */
export const DEFAULT_HASHING: HashingParams = { memoryCost: 65_536, timeCost: 3, parallelism: 1 };

/**
 * How much hashing the server takes on at once. Each hash keeps a thread busy for tens of
 * milliseconds and takes 64 MiB; left unbounded, a flood of sign-ins queues thousands of them,
 * every sign-in waits seconds and pages are starved of the processor.
 */
export interface HashingLimits {
  /** Hashes computed at the same time: half the processors, leaving the rest to serve pages. */
  concurrency: number;
  /** Requests that may wait for a turn, in each lane; past that, 503 TOO_MANY_REQUESTS with Retry-After. */
  queue: number;
  /**
   * How long a refusal is held before it is sent. A flood that sends its next request as soon as
   * it is refused would otherwise keep the server answering thousands of refusals a second, which
   * starves pages as surely as hashing did; held, a connection costs a timer (docs/decisions/056).
   */
  refusalHoldMs: number;
}

/** Sixteen waiting per hashing thread: at most about a second's wait at the default parameters. */
export function defaultHashingLimits(processors = availableParallelism()): HashingLimits {
  const concurrency = Math.max(1, Math.floor(processors / 2));
  return { concurrency, queue: 16 * concurrency, refusalHoldMs: BUSY_RETRY_AFTER_SECONDS * 1000 };
}

/**
 * Whose hashing goes first, each lane with waiting room of its own. A browser that signed in to the
 * account before (its known-device cookie, see passes.ts) is served before everyone else; then
 * sign-ins for an account that exists, from any browser, and signed-in owners confirming with their
 * password; then the rest (addresses no account has, registrations, resets). A flood of made-up
 * addresses, the cheapest to send, keeps no account's owner out, on a new browser either; a flood
 * for real accounts is held by each account's own limit (docs/decisions/056, 255).
 */
export type HashingLane = 'known' | 'account' | 'other';

const LANES_IN_TURN: readonly HashingLane[] = ['known', 'account', 'other'];

/**
 * Seconds a refused client is told to wait, and its refusal held: about how long the queue takes to
 * drain, and long enough that a flood's connections come back half as often as at one second
 * (docs/decisions/255).
 */
const BUSY_RETRY_AFTER_SECONDS = 2;
/** Refusals held at once; past that they are sent at once, so holding never grows without bound. */
const MAX_HELD_REFUSALS = 4_096;

const busy = () =>
  new ApiError(503, 'TOO_MANY_REQUESTS', { headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) } });

/** Runs tasks `concurrency` at a time, the lanes in turn and each in arrival order, with at most `queue` waiting per lane. */
function createHashingQueue({ concurrency, queue }: HashingLimits) {
  let running = 0;
  const waiting: Record<HashingLane, (() => void)[]> = { known: [], account: [], other: [] };
  const hasRoom = (lane: HashingLane) => running < concurrency || waiting[lane].length < queue;
  return {
    hasRoom,
    load: (): HashingLoad => ({
      running,
      waiting: { known: waiting.known.length, account: waiting.account.length, other: waiting.other.length },
    }),
    async run<T>(lane: HashingLane, task: () => Promise<T>): Promise<T> {
      if (running < concurrency) running++;
      else if (waiting[lane].length < queue) await new Promise<void>((resolve) => waiting[lane].push(resolve));
      else throw busy();
      try {
        return await task();
      } finally {
        // The slot passes straight to the next in line, or is freed.
        const next = LANES_IN_TURN.map((name) => waiting[name])
          .find((line) => line.length > 0)
          ?.shift();
        if (next) next();
        else running--;
      }
    },
  };
}

// The package declares its algorithms as a const enum, which type stripping cannot read; 2 is argon2id.
const ARGON2ID = 2 as Algorithm;

export interface Passwords {
  /**
   * Refuses, with 503 TOO_MANY_REQUESTS after the refusal hold, when the lane's queue is full:
   * await it before the work a request does ahead of hashing (its rate limits), so a flood costs
   * little.
   */
  admit(lane?: HashingLane): Promise<void>;
  /** In the lane of the request it serves: a sign-in's rehash waits where its check did. */
  hash(password: string, lane?: HashingLane): Promise<string>;
  /**
   * Checks a password against a stored hash. Without one (no such account) it checks against a
   * dummy hash made with the same parameters, so that the answer takes as long either way.
   */
  verify(storedHash: string | null, password: string, lane?: HashingLane): Promise<boolean>;
  /** Whether a stored hash was made with other parameters than today's and should be redone. */
  needsRehash(storedHash: string): boolean;
  /** Hashes running and waiting now, for the metrics. */
  load(): HashingLoad;
}

export function createPasswords(
  params: HashingParams = DEFAULT_HASHING,
  limits: HashingLimits = defaultHashingLimits(),
): Passwords {
  const options = { algorithm: ARGON2ID, ...params };
  const queue = createHashingQueue(limits);
  let held = 0;
  // The same password typed on different systems may arrive composed or decomposed.
  const normalize = (password: string) => password.normalize('NFC');
  let dummy: Promise<string> | undefined;
  const current = `$argon2id$v=19$m=${params.memoryCost},t=${params.timeCost},p=${params.parallelism}$`;

  return {
    async admit(lane = 'other') {
      if (queue.hasRoom(lane)) return;
      if (held < MAX_HELD_REFUSALS && limits.refusalHoldMs > 0) {
        held++;
        await new Promise((resolve) => setTimeout(resolve, limits.refusalHoldMs));
        held--;
      }
      throw busy();
    },
    hash: (password, lane = 'other') => queue.run(lane, () => hash(normalize(password), options)),
    async verify(storedHash, password, lane = 'other') {
      // Made once, at the first check, outside the queue: it is not a request's work.
      dummy ??= hash(randomBytes(32).toString('base64url'), options);
      const target = storedHash ?? (await dummy);
      const matches = await queue
        .run(lane, () => verify(target, normalize(password)))
        .catch((error: unknown) => {
          if (error instanceof ApiError) throw error;
          return false;
        });
      return storedHash !== null && matches;
    },
    needsRehash: (storedHash) => !storedHash.startsWith(current),
    load: queue.load,
  };
}
