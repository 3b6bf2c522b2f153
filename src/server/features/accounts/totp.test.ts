import { describe, expect, it } from 'vitest';
import { TEST_SECRET } from '#tests/support/api.ts';
import {
  fromBase32,
  matchingStep,
  newTotpSecret,
  openTotpSecret,
  sealTotpSecret,
  stepAt,
  toBase32,
  totpCode,
  totpUri,
} from './totp.ts';

// RFC 6238, appendix B: the SHA-1 key and the eight-digit codes at those times; six digits are their end.
const RFC_SECRET = toBase32(Buffer.from('12345678901234567890', 'ascii'));
const RFC_VECTORS: [seconds: number, code: string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP codes', () => {
  it('gives the codes of RFC 6238', () => {
    for (const [seconds, code] of RFC_VECTORS) {
      expect(totpCode(RFC_SECRET, stepAt(seconds * 1000))).toBe(code.slice(-6));
    }
  });

  it('writes and reads base32 as the apps do', () => {
    expect(toBase32(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(fromBase32('mzxw 6ytb oi======').toString()).toBe('foobar');
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(toBase32(fromBase32(secret))).toBe(secret);
    expect(() => fromBase32('not base32!')).toThrow();
  });

  it('accepts the step before and after the current one, and no further', () => {
    const secret = newTotpSecret();
    const now = Date.UTC(2026, 10, 21, 12, 0, 10);
    const step = stepAt(now);
    expect(matchingStep(secret, totpCode(secret, step), now)).toBe(step);
    expect(matchingStep(secret, totpCode(secret, step - 1), now)).toBe(step - 1);
    expect(matchingStep(secret, totpCode(secret, step + 1), now)).toBe(step + 1);
    const farPast = totpCode(secret, step - 2);
    const farFuture = totpCode(secret, step + 2);
    // Two steps can share a code by chance (one in a million): only then is a far code accepted.
    const near = [step - 1, step, step + 1].map((s) => totpCode(secret, s));
    if (!near.includes(farPast)) expect(matchingStep(secret, farPast, now)).toBeNull();
    if (!near.includes(farFuture)) expect(matchingStep(secret, farFuture, now)).toBeNull();
    expect(matchingStep(secret, 'abcdef', now)).toBeNull();
    expect(matchingStep(secret, '1234567', now)).toBeNull();
  });

  it('keeps the secret sealed: readable only with the server secret, and tampering shows', () => {
    const secret = newTotpSecret();
    const sealed = sealTotpSecret(TEST_SECRET, secret);
    expect(sealed).not.toContain(secret);
    expect(openTotpSecret(TEST_SECRET, sealed)).toBe(secret);
    expect(() => openTotpSecret(Buffer.alloc(32, 9), sealed)).toThrow();
    const [iv, tag, body = ''] = sealed.split('.');
    const flipped = `${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
    expect(() => openTotpSecret(TEST_SECRET, [iv, tag, flipped].join('.'))).toThrow();
  });

  it('makes the address the apps read, with the brand as issuer', () => {
    expect(totpUri('JBSWY3DPEHPK3PXP', 'Your Company', 'a@example.com')).toBe(
      'otpauth://totp/Your%20Company:a%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Your+Company&algorithm=SHA1&digits=6&period=30',
    );
  });
});
