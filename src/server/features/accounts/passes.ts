import { timingSafeEqual } from 'node:crypto';
import { storageEntry } from '#common/storage.ts';
import { lifetimeSeconds } from '#server/http/cookies.ts';
import { keyedHash } from '#server/platform/secrets.ts';

/**
 * Passes a browser holds for one account's address: the address and an expiry, signed with the
 * server secret, so any instance can check one and nothing is stored. A pass only ever eases a
 * limit; the password must still be right.
 */
export const PASSES = {
  /**
   * Past the per-account sign-in lock, for the browser that just proved it controls the mailbox (a
   * password reset); per-client limits and a limit of its own still apply (docs/decisions/012).
   * It lasts the lock's window: enough to sign in right after the reset.
   */
  signIn: { purpose: 'sign-in-pass', seconds: 15 * 60 },
  /**
   * The known-device cookie, given at each successful sign-in: its holder's hashing goes first
   * while a flood fills the queue (docs/decisions/056).
   */
  knownDevice: { purpose: 'known-device', seconds: lifetimeSeconds(storageEntry('knownDevice')) },
} as const;

export type PassKind = keyof typeof PASSES;

const mac = (secret: Buffer, kind: PassKind, email: string, expires: number) =>
  keyedHash(secret, PASSES[kind].purpose, email, String(expires));

export function issuePass(secret: Buffer, kind: PassKind, email: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + PASSES[kind].seconds;
  return `${expires}.${mac(secret, kind, email, expires)}`;
}

/** Whether `pass` is a pass of this kind issued by this server (or one sharing its secret) for `email`, and still valid. */
export function isPassFor(
  secret: Buffer,
  kind: PassKind,
  pass: string | undefined,
  email: string,
  now = Date.now(),
): boolean {
  const [expiresText, given = ''] = (pass ?? '').split('.');
  const expires = Number(expiresText);
  if (!Number.isInteger(expires) || expires * 1000 <= now) return false;
  const wanted = Buffer.from(mac(secret, kind, email, expires));
  const received = Buffer.from(given);
  return wanted.length === received.length && timingSafeEqual(wanted, received);
}
