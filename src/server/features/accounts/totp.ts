import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { keyedHash } from '#server/platform/secrets.ts';

/**
 * Time-based one-time codes (RFC 6238 over RFC 4226): HMAC-SHA-1, six digits, 30-second steps,
 * the parameters every authenticator app supports. Small enough to write here rather than depend
 * on a library; the RFC's test vectors check it (totp.test.ts).
 */
export const TOTP = { digits: 6, periodSeconds: 30, secretBytes: 20 } as const;
/**
 * Codes of the step before and after the current one are accepted too: a phone's clock may be
 * off by a little, and a code typed at the end of its 30 seconds arrives in the next step.
 */
export const TOTP_WINDOW_STEPS = 1;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function toBase32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function fromBase32(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text.replace(/[\s=]/g, '').toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('Not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A new secret: 160 random bits, as RFC 4226 recommends, in the base32 that apps take. */
export const newTotpSecret = () => toBase32(randomBytes(TOTP.secretBytes));

/** The time step a moment falls in. */
export const stepAt = (nowMs: number) => Math.floor(nowMs / 1000 / TOTP.periodSeconds);

/** The code of one time step (RFC 4226's dynamic truncation). */
export function totpCode(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', fromBase32(secret)).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 15;
  const number = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(number % 10 ** TOTP.digits).padStart(TOTP.digits, '0');
}

/**
 * The time step whose code `code` is, within the window around `nowMs`, or null. The caller
 * refuses a step at or before the last one accepted, so that a code works once.
 */
export function matchingStep(secret: string, code: string, nowMs = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = stepAt(nowMs);
  // Newest first: a code valid in two steps (it happens, rarely) counts as the later one.
  for (let step = now + TOTP_WINDOW_STEPS; step >= now - TOTP_WINDOW_STEPS; step--) {
    if (totpCode(secret, step) === code) return step;
  }
  return null;
}

/** The address an authenticator app reads from the QR code (Google's Key Uri Format). */
export function totpUri(secret: string, issuer: string, accountName: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(accountName)}`;
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP.digits),
    period: String(TOTP.periodSeconds),
  });
  return `otpauth://totp/${label}?${query}`;
}

// The secret must be read back to check a code, so it cannot be hashed: the database keeps it
// encrypted (AES-256-GCM) with a key derived from the server secret, so a copy of the database
// alone does not give anyone the codes.
const keyOf = (serverSecret: Buffer) => Buffer.from(keyedHash(serverSecret, 'totp-secret-key'), 'base64url');

export function sealTotpSecret(serverSecret: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(serverSecret), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

export function openTotpSecret(serverSecret: Buffer, stored: string): string {
  const [iv = '', tag = '', sealed = ''] = stored.split('.');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(serverSecret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}
