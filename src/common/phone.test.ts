import { getCountries } from 'libphonenumber-js/min';
import { describe, expect, it } from 'vitest';
import { PhoneSchema, phoneSchema } from './phone.ts';
import { PHONE_COUNTRIES, suggestedPhoneCountry } from './phone-countries.ts';
import { RegisterSchema } from './register-schema.ts';

/** The error code a value fails with, or its parsed value. */
function check(schema: { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } }) {
  return (value: unknown) => {
    const result = schema.safeParse(value);
    if (result.success) return { ok: result.data };
    return { error: (result.error as { issues: { message: string }[] }).issues[0]?.message };
  };
}

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

describe('a national number with its country', () => {
  it('is read the way people write it there, and kept in international form', () => {
    expect(check(phoneSchema('TH'))('081 234 5678')).toEqual({ ok: '+66812345678' });
    expect(check(phoneSchema('DE'))('030 1234567')).toEqual({ ok: '+49301234567' });
    expect(check(phoneSchema('NL'))('06-12345678')).toEqual({ ok: '+31612345678' });
    expect(check(phoneSchema('GB'))('020 7946 0958')).toEqual({ ok: '+442079460958' });
  });

  it('still takes an international number whatever the country chosen', () => {
    expect(check(phoneSchema('TH'))('+49 30 1234567')).toEqual({ ok: '+49301234567' });
    expect(check(phoneSchema('TH'))('0049 30 1234567')).toEqual({ ok: '+49301234567' });
  });

  it('refuses a number too short or too long for the country', () => {
    expect(check(phoneSchema('TH'))('081 234')).toEqual({ error: 'INVALID_PHONE' });
    expect(check(phoneSchema('DE'))('030 1234567 8901 234')).toEqual({ error: 'INVALID_PHONE' });
  });
});

describe('the countries offered beside the field', () => {
  it('are those libphonenumber-js reads', () => {
    expect([...PHONE_COUNTRIES]).toEqual(getCountries());
  });

  it('start from the browser’s region for the page’s language, else from the language', () => {
    expect(suggestedPhoneCountry('th')).toBe('TH');
    expect(suggestedPhoneCountry('de')).toBe('DE');
    expect(suggestedPhoneCountry('en')).toBe('GB');
    expect(suggestedPhoneCountry('en', ['en-US', 'th-TH'])).toBe('US');
    expect(suggestedPhoneCountry('en', ['th-TH', 'en-AU'])).toBe('AU');
    expect(suggestedPhoneCountry('de', ['de-AT'])).toBe('AT');
    expect(suggestedPhoneCountry('fr', ['fr', 'en-US'])).toBe('FR');
    expect(suggestedPhoneCountry('nl', ['nl-ZZ'])).toBe('NL');
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

  it('reads a national number in the country chosen beside it', () => {
    expect(RegisterSchema.parse({ ...valid, phone: '081 234 5678', phoneCountry: 'TH' }).phone).toBe('+66812345678');
    const national = RegisterSchema.safeParse({ ...valid, phone: '081 234 5678' });
    expect(national.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['phone', 'INVALID_PHONE'],
    ]);
    const unknown = RegisterSchema.safeParse({ ...valid, phoneCountry: 'XX' });
    expect(unknown.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['phoneCountry']);
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
