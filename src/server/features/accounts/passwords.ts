import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

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

// The package declares its algorithms as a const enum, which type stripping cannot read; 2 is argon2id.
const ARGON2ID = 2 as Algorithm;

export interface Passwords {
  hash(password: string): Promise<string>;
  /**
   * Checks a password against a stored hash. Without one (no such account) it checks against a
   * dummy hash made with the same parameters, so that the answer takes as long either way.
   */
  verify(storedHash: string | null, password: string): Promise<boolean>;
  /** Whether a stored hash was made with other parameters than today's and should be redone. */
  needsRehash(storedHash: string): boolean;
}

export function createPasswords(params: HashingParams = DEFAULT_HASHING): Passwords {
  const options = { algorithm: ARGON2ID, ...params };
  // The same password typed on different systems may arrive composed or decomposed.
  const normalize = (password: string) => password.normalize('NFC');
  let dummy: Promise<string> | undefined;
  const current = `$argon2id$v=19$m=${params.memoryCost},t=${params.timeCost},p=${params.parallelism}$`;

  return {
    hash: (password) => hash(normalize(password), options),
    async verify(storedHash, password) {
      dummy ??= hash(randomBytes(32).toString('base64url'), options);
      const target = storedHash ?? (await dummy);
      const matches = await verify(target, normalize(password)).catch(() => false);
      return storedHash !== null && matches;
    },
    needsRehash: (storedHash) => !storedHash.startsWith(current),
  };
}
