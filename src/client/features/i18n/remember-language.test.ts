import { afterEach, describe, expect, it, vi } from 'vitest';
import { cacheLanguage, rememberLanguage } from './remember-language.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('rememberLanguage', () => {
  it('keeps the choice in local storage and in a Secure, SameSite=Strict cookie for a year', () => {
    const cookies: string[] = [];
    const stored = new Map<string, string>();
    vi.stubGlobal('document', {
      set cookie(line: string) {
        cookies.push(line);
      },
    });
    vi.stubGlobal('window', { localStorage: { setItem: (name: string, value: string) => stored.set(name, value) } });

    rememberLanguage('th');

    expect(stored.get('lang')).toBe('th');
    expect(cookies).toHaveLength(1);
    const attributes = (cookies[0] ?? '').split('; ');
    expect(attributes).toEqual(['lang=th', `Max-Age=${365 * 24 * 60 * 60}`, 'Path=/', 'SameSite=Strict', 'Secure']);
  });

  it('still sets the cookie when local storage refuses', () => {
    const cookies: string[] = [];
    vi.stubGlobal('document', {
      set cookie(line: string) {
        cookies.push(line);
      },
    });
    vi.stubGlobal('window', {
      localStorage: {
        setItem: () => {
          throw new DOMException('full', 'QuotaExceededError');
        },
      },
    });
    rememberLanguage('fr');
    expect(cookies[0]).toMatch(/^lang=fr;/);
  });
});

describe('cacheLanguage', () => {
  it('keeps the language in local storage only, and shrugs off a storage that refuses', () => {
    const stored = new Map<string, string>();
    cacheLanguage('nl', { setItem: (name, value) => stored.set(name, value) });
    expect([...stored]).toEqual([['lang', 'nl']]);
    expect(() =>
      cacheLanguage('de', {
        setItem: () => {
          throw new DOMException('blocked', 'SecurityError');
        },
      }),
    ).not.toThrow();
  });
});
