import { createInstance, type i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseOptions } from '#client/features/i18n/index.ts';
import { CODE_LIFETIME_MINUTES, CODE_MAX_ATTEMPTS } from '#common/account-api.ts';
import { ERROR_CODES } from '#common/error-codes.ts';
import { errorText } from '#common/error-texts.ts';
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#common/field-bounds.ts';
import { LANGUAGES } from '#common/languages.ts';
import { readTexts } from '#server/platform/site-config.ts';
import { errorActions, errorMessage } from './error-messages.tsx';

const site = { brand: { siteName: 'Example', domain: 'example.com' } } as Parameters<typeof baseOptions>[0];
const instances = new Map<string, I18n>();

beforeAll(async () => {
  const texts = await readTexts(site.brand);
  for (const language of LANGUAGES) {
    const instance = createInstance();
    await instance.init({ ...baseOptions(site), lng: language, resources: texts, ns: ['common', 'errors'] });
    instances.set(language, instance);
  }
});

const fallbackOf = (language: string) => instances.get(language)?.t('error.text') ?? '';

describe('errorText', () => {
  it('turns Retry-After into seconds below a minute and whole minutes above', () => {
    expect(errorText({ code: 'TOO_MANY_REQUESTS', retryAfter: 45 })).toEqual({
      key: 'retry.seconds',
      options: { count: 45 },
    });
    expect(errorText({ code: 'TOO_MANY_REQUESTS', retryAfter: 61 })).toEqual({
      key: 'retry.minutes',
      options: { count: 2 },
    });
    expect(errorText({ code: 'TOO_MANY_REQUESTS', retryAfter: 3600 })).toEqual({
      key: 'retry.minutes',
      options: { count: 60 },
    });
    expect(errorText({ code: 'TOO_MANY_REQUESTS' })).toEqual({ key: 'TOO_MANY_REQUESTS', options: {} });
  });

  it('names the limits the rules use', () => {
    expect(errorText({ code: 'INVALID_NAME' }).options).toEqual({ count: NAME_MAX_LENGTH });
    expect(errorText({ code: 'INVALID_PASSWORD' }).options).toEqual({
      count: PASSWORD_MAX_LENGTH,
      min: PASSWORD_MIN_LENGTH,
    });
    expect(errorText({ code: 'VERIFICATION_FAILED' }).options).toEqual({
      count: CODE_LIFETIME_MINUTES,
      attempts: CODE_MAX_ATTEMPTS,
    });
  });
});

describe.each(LANGUAGES)('error messages in %s', (language) => {
  const t = () => instances.get(language) as I18n;

  it('exist for every code, filled in, and none is the generic fallback', () => {
    for (const code of ERROR_CODES) {
      const message = errorMessage(t(), { code });
      expect(message, code).not.toBe(fallbackOf(language));
      expect(message, code).not.toMatch(/\{\{|\}\}/);
    }
  });

  it('say how long to wait', () => {
    expect(errorMessage(t(), { code: 'TOO_MANY_REQUESTS', retryAfter: 30 })).toContain('30');
    expect(errorMessage(t(), { code: 'TOO_MANY_REQUESTS', retryAfter: 1200 })).toContain('20');
    expect(errorMessage(t(), { code: 'TOO_MANY_REQUESTS', retryAfter: 30 })).not.toBe(
      errorMessage(t(), { code: 'TOO_MANY_REQUESTS', retryAfter: 1200 }),
    );
  });

  it('give the numbers of the rules', () => {
    expect(errorMessage(t(), { code: 'INVALID_NAME' })).toContain(String(NAME_MAX_LENGTH));
    expect(errorMessage(t(), { code: 'INVALID_PASSWORD' })).toContain(String(PASSWORD_MAX_LENGTH));
    expect(errorMessage(t(), { code: 'INVALID_PASSWORD' })).toContain(String(PASSWORD_MIN_LENGTH));
    const verification = errorMessage(t(), { code: 'VERIFICATION_FAILED' });
    expect(verification).toContain(String(CODE_LIFETIME_MINUTES));
    expect(verification).toContain(String(CODE_MAX_ATTEMPTS));
  });

  it('label every action', () => {
    for (const code of ERROR_CODES) {
      for (const action of errorActions(code)) {
        expect(t().exists(`actions.${action}`, { ns: 'errors' }), `${code}: ${action}`).toBe(true);
      }
    }
  });
});

describe('errorActions', () => {
  it('offers sign-in and a password reset where an account exists, and writing to us when nothing else helps', () => {
    expect(errorActions('EMAIL_ALREADY_EXISTS')).toEqual(['signIn', 'resetPassword']);
    expect(errorActions('INVALID_CREDENTIALS')).toEqual(['resetPassword']);
    expect(errorActions('PHONE_ALREADY_EXISTS')).toEqual(['signIn']);
    expect(errorActions('UNKNOWN_ERROR')).toEqual(['contact']);
    expect(errorActions('INVALID_EMAIL')).toEqual([]);
  });
});

describe('numbers that texts show without choosing the plural form', () => {
  // "at most {{attempts}} tries", "{{min}} to {{count}} characters", "at the latest {{max}} days":
  // only `count` picks the form, so the others must read right in the plural of every language.
  it.each([
    ['CODE_MAX_ATTEMPTS', CODE_MAX_ATTEMPTS],
    ['PASSWORD_MIN_LENGTH', PASSWORD_MIN_LENGTH],
  ])('%s takes the plural in every language', (_, value) => {
    for (const language of LANGUAGES) expect(new Intl.PluralRules(language).select(value)).toBe('other');
  });
});
