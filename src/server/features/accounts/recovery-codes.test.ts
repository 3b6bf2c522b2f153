import { describe, expect, it } from 'vitest';
import { newRecoveryCodes, normaliseRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes.ts';

describe('recovery codes', () => {
  it('makes ten different codes of two groups of five', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  });

  it('reads a code however it is typed, and refuses what cannot be one', () => {
    expect(normaliseRecoveryCode('k7fq2-m9tzc')).toBe('k7fq2m9tzc');
    expect(normaliseRecoveryCode(' K7FQ2 M9TZC ')).toBe('k7fq2m9tzc');
    expect(normaliseRecoveryCode('k7fq2m9tz')).toBeNull();
    expect(normaliseRecoveryCode('k7fq2-m9tz0')).toBeNull();
    expect(normaliseRecoveryCode('123456')).toBeNull();
  });
});
