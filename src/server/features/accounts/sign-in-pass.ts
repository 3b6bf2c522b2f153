import { timingSafeEqual } from 'node:crypto';
import { keyedHash } from '#server/platform/secrets.ts';

/**
 * How long the pass of a password reset lasts: the length of the sign-in lock's window, enough to
 * sign in right after the reset.
 */
export const SIGN_IN_PASS_SECONDS = 15 * 60;

const mac = (secret: Buffer, email: string, expires: number) =>
  keyedHash(secret, 'sign-in-pass', email, String(expires));

/**
 * A pass past the per-account sign-in lock, for the browser that just proved it controls the
 * account's mailbox (a password reset): the account's address and an expiry, signed with the
 * server secret, so any instance can check it and nothing is stored. It lifts only the per-account
 * lock: the password must still be right, and per-client limits (and a limit of its own) apply.
 */
export function issueSignInPass(secret: Buffer, email: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + SIGN_IN_PASS_SECONDS;
  return `${expires}.${mac(secret, email, expires)}`;
}

/** Whether `pass` was issued by this server (or one sharing its secret) for `email`, and is still valid. */
export function isSignInPassFor(secret: Buffer, pass: string | undefined, email: string, now = Date.now()): boolean {
  const [expiresText, given = ''] = (pass ?? '').split('.');
  const expires = Number(expiresText);
  if (!Number.isInteger(expires) || expires * 1000 <= now) return false;
  const wanted = Buffer.from(mac(secret, email, expires));
  const received = Buffer.from(given);
  return wanted.length === received.length && timingSafeEqual(wanted, received);
}
