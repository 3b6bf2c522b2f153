import { randomInt } from 'node:crypto';
import { keyedHash } from '#server/platform/secrets.ts';

/** How many recovery codes an account gets at once. */
export const RECOVERY_CODE_COUNT = 10;

// Lower-case letters and digits without the ones people confuse (0/o, 1/l/i): ten of them give
// 10 × log2(31) ≈ 50 bits, out of reach of guessing within the sign-in limits.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten new codes, written as two groups of five ("k7fq2-m9tzc") to be read and typed easily. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A recovery code as typed (any case, with or without the dash or spaces), or null when it cannot be one. */
export function normaliseRecoveryCode(typed: string): string | null {
  const chars = typed.toLowerCase().replace(/[\s-]/g, '');
  return chars.length === 10 && [...chars].every((char) => ALPHABET.includes(char)) ? chars : null;
}

/** What the database keeps of a code: a keyed hash, bound to its account. */
export const recoveryCodeHash = (secret: Buffer, accountId: string, normalised: string) =>
  keyedHash(secret, 'recovery-code', accountId, normalised);
