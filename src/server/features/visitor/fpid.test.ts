import { describe, expect, it } from 'vitest';
import { issueFpid, verifyFpid } from './fpid.ts';

const secret = Buffer.from('a'.repeat(32));
const other = Buffer.from('b'.repeat(32));

describe('fpid', () => {
  it('is stable for a visitor and differs between visitors', () => {
    expect(issueFpid(secret, 'visitor-1')).toBe(issueFpid(secret, 'visitor-1'));
    expect(issueFpid(secret, 'visitor-1')).not.toBe(issueFpid(secret, 'visitor-2'));
  });

  it('does not contain the visitorId and depends on the secret', () => {
    expect(issueFpid(secret, 'abcdef0123456789')).not.toContain('abcdef0123456789');
    expect(issueFpid(secret, 'visitor-1')).not.toBe(issueFpid(other, 'visitor-1'));
  });

  it('verifies only what this secret issued', () => {
    const fpid = issueFpid(secret, 'visitor-1');
    expect(verifyFpid(secret, fpid)).toBe(true);
    expect(verifyFpid(other, fpid)).toBe(false);
    expect(verifyFpid(secret, `${fpid.slice(0, -1)}${fpid.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    for (const junk of ['', 'v1', 'v1..', 'v2.a.b', `${fpid}.x`, '<script>', 'x'.repeat(500)]) {
      expect(verifyFpid(secret, junk)).toBe(false);
    }
  });
});
