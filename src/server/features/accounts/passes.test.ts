import { describe, expect, it } from 'vitest';
import { isPassFor, issuePass, PASSES, type PassKind } from './passes.ts';

const secret = Buffer.alloc(32, 9);
const now = Date.UTC(2026, 10, 23, 12);

describe.each(Object.keys(PASSES) as PassKind[])('%s pass', (kind) => {
  const other: PassKind = kind === 'signIn' ? 'knownDevice' : 'signIn';

  it('is valid for its address until it lapses', () => {
    const pass = issuePass(secret, kind, 'ada@example.com', now);
    const lifetime = PASSES[kind].seconds * 1000;
    expect(isPassFor(secret, kind, pass, 'ada@example.com', now)).toBe(true);
    expect(isPassFor(secret, kind, pass, 'ada@example.com', now + lifetime - 1000)).toBe(true);
    expect(isPassFor(secret, kind, pass, 'ada@example.com', now + lifetime)).toBe(false);
  });

  it('is worth nothing for another address, another kind, from another secret, altered, or absent', () => {
    const pass = issuePass(secret, kind, 'ada@example.com', now);
    const [expires, mac] = pass.split('.');
    expect(isPassFor(secret, kind, pass, 'eve@example.com', now)).toBe(false);
    expect(isPassFor(secret, other, pass, 'ada@example.com', now)).toBe(false);
    expect(isPassFor(Buffer.alloc(32, 1), kind, pass, 'ada@example.com', now)).toBe(false);
    expect(isPassFor(secret, kind, `${Number(expires) + 3600}.${mac}`, 'ada@example.com', now)).toBe(false);
    for (const broken of [undefined, '', '.', 'x.y', `${expires}.`, `${expires}`]) {
      expect(isPassFor(secret, kind, broken, 'ada@example.com', now)).toBe(false);
    }
  });
});
