import { describe, expect, it } from 'vitest';
import { isSignInPassFor, issueSignInPass, SIGN_IN_PASS_SECONDS } from './sign-in-pass.ts';

const secret = Buffer.alloc(32, 9);
const now = Date.UTC(2026, 10, 23, 12);

describe('sign-in pass', () => {
  it('is valid for its address until it lapses', () => {
    const pass = issueSignInPass(secret, 'ada@example.com', now);
    expect(isSignInPassFor(secret, pass, 'ada@example.com', now)).toBe(true);
    expect(isSignInPassFor(secret, pass, 'ada@example.com', now + (SIGN_IN_PASS_SECONDS - 1) * 1000)).toBe(true);
    expect(isSignInPassFor(secret, pass, 'ada@example.com', now + SIGN_IN_PASS_SECONDS * 1000)).toBe(false);
  });

  it('is worth nothing for another address, from another secret, altered, or absent', () => {
    const pass = issueSignInPass(secret, 'ada@example.com', now);
    const [expires, mac] = pass.split('.');
    expect(isSignInPassFor(secret, pass, 'eve@example.com', now)).toBe(false);
    expect(isSignInPassFor(Buffer.alloc(32, 1), pass, 'ada@example.com', now)).toBe(false);
    expect(isSignInPassFor(secret, `${Number(expires) + 3600}.${mac}`, 'ada@example.com', now)).toBe(false);
    for (const broken of [undefined, '', '.', 'x.y', `${expires}.`, `${expires}`]) {
      expect(isSignInPassFor(secret, broken, 'ada@example.com', now)).toBe(false);
    }
  });
});
