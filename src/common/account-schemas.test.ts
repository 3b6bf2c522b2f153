import { describe, expect, it } from 'vitest';
import { CodeSchema, LoginSchema, PasswordSchema } from './account-schemas.ts';
import { EmailSchema, NameSchema } from './fields.ts';
import { passwordStrength } from './password-strength.ts';

/** The error code a value fails with, or its parsed value. */
function check(schema: { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } }) {
  return (value: unknown) => {
    const result = schema.safeParse(value);
    if (result.success) return { ok: result.data };
    return { error: (result.error as { issues: { message: string }[] }).issues[0]?.message };
  };
}

describe('NameSchema', () => {
  const name = check(NameSchema);

  it('takes names from every script, trimmed and in composed form', () => {
    expect(name('  Ada Lovelace ')).toEqual({ ok: 'Ada Lovelace' });
    expect(name('สมชาย ใจดี')).toEqual({ ok: 'สมชาย ใจดี' });
    expect(name("Seán O'Brien-Müller")).toEqual({ ok: "Seán O'Brien-Müller" });
    expect(name('Zoe\u0308')).toEqual({ ok: 'Zoë' });
    expect(name('李小龍')).toEqual({ ok: '李小龍' });
    expect(name("Robert'); DROP TABLE accounts;--")).toEqual({ ok: "Robert'); DROP TABLE accounts;--" });
  });

  it('counts characters, not UTF-16 units', () => {
    expect(name('𝒜'.repeat(100))).toEqual({ ok: '𝒜'.repeat(100) });
    expect(name('a'.repeat(101))).toEqual({ error: 'INVALID_NAME' });
  });

  it('says a missing or blank name is missing', () => {
    expect(name(undefined)).toEqual({ error: 'MISSING_REQUIRED_FIELD' });
    expect(name('   ')).toEqual({ error: 'MISSING_REQUIRED_FIELD' });
  });

  it.each([
    ['markup', '<script>alert(1)</script>'],
    ['a bidirectional override', 'Eve\u202eevil'],
    ['a control character', 'Ann\u0000a'],
    ['a line break', 'Ann\nSmith'],
    ['a lone surrogate', 'Ann\ud800'],
    ['no letter at all', '12345'],
    ['only punctuation', "-'-"],
    ['a number instead of text', 42],
  ])('refuses %s', (_, value) => {
    expect(name(value)).toEqual({ error: 'INVALID_NAME' });
  });
});

describe('EmailSchema', () => {
  const email = check(EmailSchema);

  it('keeps addresses in lower case, trimmed', () => {
    expect(email(' Ada@Example.COM ')).toEqual({ ok: 'ada@example.com' });
  });

  it.each([
    'ada',
    'ada@',
    '@example.com',
    'a b@example.com',
    '<b>@example.com',
    "x'@x'; --",
    `${'a'.repeat(250)}@x.io`,
  ])('refuses %s', (value) => {
    expect(email(value)).toEqual({ error: 'INVALID_EMAIL' });
  });

  it('says a missing address is missing', () => {
    expect(email('')).toEqual({ error: 'MISSING_REQUIRED_FIELD' });
  });
});

describe('PasswordSchema', () => {
  const password = check(PasswordSchema);

  it('takes 8 to 128 characters as they are, spaces included', () => {
    expect(password(' 8 chars')).toEqual({ ok: ' 8 chars' });
    expect(password('x'.repeat(128))).toEqual({ ok: 'x'.repeat(128) });
    expect(password('🔑'.repeat(8))).toEqual({ ok: '🔑'.repeat(8) });
  });

  it('refuses shorter, longer and malformed ones', () => {
    expect(password('seven77')).toEqual({ error: 'INVALID_PASSWORD' });
    expect(password('x'.repeat(129))).toEqual({ error: 'INVALID_PASSWORD' });
    expect(password('password\ud800')).toEqual({ error: 'INVALID_PASSWORD' });
    expect(password('')).toEqual({ error: 'MISSING_REQUIRED_FIELD' });
  });
});

describe('CodeSchema', () => {
  const code = check(CodeSchema);

  it('takes six digits, with spaces between them', () => {
    expect(code('123456')).toEqual({ ok: '123456' });
    expect(code(' 123 456 ')).toEqual({ ok: '123456' });
  });

  it.each(['12345', '1234567', 'abcdef', '12345x', '１２３４５６'])('refuses %s', (value) => {
    expect(code(value)).toEqual({ error: 'VERIFICATION_FAILED' });
  });
});

describe('LoginSchema', () => {
  it('tries any password up to a bound, without the rules for new ones', () => {
    expect(LoginSchema.safeParse({ email: 'a@b.co', password: 'short' }).success).toBe(true);
    expect(LoginSchema.safeParse({ email: 'a@b.co', password: 'x'.repeat(513) }).success).toBe(false);
  });
});

describe('passwordStrength', () => {
  it('says nothing about an empty password, weak under 8 characters and strong from 8', () => {
    expect(passwordStrength('')).toBeNull();
    expect(passwordStrength('a')).toBe('weak');
    expect(passwordStrength('1234567')).toBe('weak');
    expect(passwordStrength('12345678')).toBe('strong');
    expect(passwordStrength('🔑🔑🔑🔑')).toBe('weak');
  });
});
