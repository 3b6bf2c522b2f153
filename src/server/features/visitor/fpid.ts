import { createHmac, timingSafeEqual } from 'node:crypto';
import { hmacKey } from '#server/platform/secrets.ts';

const VERSION = 'v1';
const ID_BYTES = 18;
const TAG_BYTES = 12;

function mac(secret: Buffer, label: string, value: string, bytes: number): string {
  return createHmac('sha256', hmacKey(secret))
    .update(`${label}:${value}`)
    .digest()
    .subarray(0, bytes)
    .toString('base64url');
}

/**
 * The visitor identifier the server hands out for a fingerprint: a keyed hash of the visitorId
 * (stable for the same visitor, the same on every instance with the same secret, not the raw
 * visitorId, not guessable), followed by a tag that lets any instance check it without storage.
 */
export function issueFpid(secret: Buffer, visitorId: string): string {
  const id = mac(secret, 'id', visitorId, ID_BYTES);
  return `${VERSION}.${id}.${mac(secret, 'tag', id, TAG_BYTES)}`;
}

/** Whether an fpid was issued with this secret. */
export function verifyFpid(secret: Buffer, fpid: string): boolean {
  const [version, id, tag, ...rest] = fpid.split('.');
  if (version !== VERSION || !id || !tag || rest.length > 0 || fpid.length > 64) return false;
  const expected = Buffer.from(mac(secret, 'tag', id, TAG_BYTES));
  const given = Buffer.from(tag);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
