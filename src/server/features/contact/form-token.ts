import { timingSafeEqual } from 'node:crypto';
import { keyedHash } from '#server/platform/secrets.ts';

/**
 * The contact form's time stamp: the second it was issued and a keyed hash of it, so a robot can
 * neither make one up nor move one back in time. Pages are prerendered (and may come from a CDN),
 * so the stamp cannot be written into the HTML: the page's script asks for one when the form
 * appears, and sends it back with the message (see docs/decisions/071-contact-spam.md).
 */
export function issueFormToken(secret: Buffer, nowMs = Date.now()): string {
  const issued = String(Math.floor(nowMs / 1000));
  return `${issued}.${keyedHash(secret, 'contact-form-token', issued)}`;
}

export type TokenCheck = { valid: false } | { valid: true; ageSeconds: number };

/** Whether a token is one this server issued, and how old it is. */
export function checkFormToken(secret: Buffer, token: string, nowMs = Date.now()): TokenCheck {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { valid: false };
  const [, issued = '', signature = ''] = match;
  const expected = Buffer.from(keyedHash(secret, 'contact-form-token', issued));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { valid: false };
  return { valid: true, ageSeconds: nowMs / 1000 - Number(issued) };
}
