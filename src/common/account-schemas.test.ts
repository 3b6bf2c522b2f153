import { describe, expect, it } from 'vitest';
import { CodeSchema, LoginSchema, PasswordSchema, PhoneSchema, RegisterSchema } from './account-schemas.ts';
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

describe('PhoneSchema', () => {
  const phone = check(PhoneSchema);

  it('takes international numbers as people type them, and keeps the digits', () => {
    expect(phone('+44 20 7946 0958')).toEqual({ ok: '+442079460958' });
    expect(phone('+1 (415) 555-0132')).toEqual({ ok: '+14155550132' });
    expect(phone('0066 2 123 4567')).toEqual({ ok: '+6621234567' });
    expect(phone('+39.06.1234.5678')).toEqual({ ok: '+390612345678' });
  });

  it.each([
    '020 7946 0958',
    '+0 123 456 789',
    '+44 12',
    '+1234567890123456',
    '+44 20 ABC 0958',
    "+44'; DROP",
    '++4420794609',
  ])('refuses %s', (value) => {
    expect(phone(value)).toEqual({ error: 'INVALID_PHONE' });
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

describe('RegisterSchema', () => {
  const valid = {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: '+44 20 7946 0958',
    password: 'correct horse',
    acceptTerms: true,
  };

  it('takes a whole registration, in English unless told otherwise', () => {
    expect(RegisterSchema.parse(valid)).toEqual({ ...valid, phone: '+442079460958', language: 'en' });
    expect(RegisterSchema.parse({ ...valid, language: 'th' }).language).toBe('th');
  });

  it('needs the terms accepted', () => {
    const result = RegisterSchema.safeParse({ ...valid, acceptTerms: false });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['acceptTerms', 'MISSING_REQUIRED_FIELD'],
    ]);
  });

  it('names every missing field', () => {
    const result = RegisterSchema.safeParse({});
    expect(new Set(result.error?.issues.map((issue) => issue.path.join('.')))).toEqual(
      new Set(['name', 'email', 'phone', 'password', 'acceptTerms']),
    );
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
