import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_ENTRIES } from '#common/storage.ts';
import {
  type ConsentedStorage,
  chooseConsent,
  followConsent,
  forgetConsentedItems,
  readConsent,
  useConsent,
} from './consent.ts';

/** A cookie jar as document.cookie shows it: writes set or (Max-Age=0) delete one cookie each. */
function cookieJar(initial: Record<string, string>) {
  const jar = new Map(Object.entries(initial));
  const writes: string[] = [];
  const document = {
    get cookie() {
      return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    set cookie(line: string) {
      writes.push(line);
      const [pair = ''] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (/Max-Age=0(;|$)/.test(line)) jar.delete(name.trim());
      else jar.set(name.trim(), value);
    },
  };
  return { jar, writes, document };
}

function fakeStorage() {
  const removed: string[] = [];
  const storage: ConsentedStorage = {
    deleteCookie: (name) => removed.push(`cookie:${name}`),
    removeItem: (kind, name) => removed.push(`${kind}:${name}`),
  };
  return { storage, removed };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('forgetConsentedItems', () => {
  it('removes every item that needs consent, and the visitor identifier only with the privacy option', () => {
    const analytics = STORAGE_ENTRIES.filter((entry) => entry.needsConsent === true).map(
      (entry) => `${entry.kind}:${entry.name}`,
    );

    const without = fakeStorage();
    forgetConsentedItems(false, without.storage);
    expect(without.removed.sort()).toEqual([...analytics].sort());

    const withOption = fakeStorage();
    forgetConsentedItems(true, withOption.storage);
    expect(withOption.removed.sort()).toEqual([...analytics, 'cookie:_fpid'].sort());
  });
});

describe('chooseConsent', () => {
  const browser = (cookies: Record<string, string>) => {
    const jar = cookieJar(cookies);
    const storage = { removeItem: vi.fn() };
    vi.stubGlobal('document', jar.document);
    vi.stubGlobal('window', { localStorage: storage, sessionStorage: storage });
    return jar;
  };

  it('withdrawn under the privacy option, deletes _fpid with the analytics cookie', () => {
    const jar = browser({ consent: 'granted', _fpid: 'v1.abc.def', ph_fpid: 'x', lang: 'en' });
    chooseConsent('denied', { privacyOption: true });
    expect(readConsent()).toBe('denied');
    expect([...jar.jar.keys()].sort()).toEqual(['consent', 'lang']);
  });

  it('withdrawn without the privacy option, keeps _fpid, which does not depend on consent', () => {
    const jar = browser({ consent: 'granted', _fpid: 'v1.abc.def', ph_fpid: 'x' });
    chooseConsent('denied', { privacyOption: false });
    expect([...jar.jar.keys()].sort()).toEqual(['_fpid', 'consent']);
  });

  it('granted, removes nothing', () => {
    const jar = browser({ _fpid: 'v1.abc.def' });
    chooseConsent('granted', { privacyOption: true });
    expect(readConsent()).toBe('granted');
    expect([...jar.jar.keys()].sort()).toEqual(['_fpid', 'consent']);
  });
});

describe('the consent store', () => {
  it('reads the choice from the cookie, pending without one or with a value it does not know', () => {
    const jar = cookieJar({});
    vi.stubGlobal('document', jar.document);
    expect(readConsent()).toBe('pending');
    jar.jar.set('consent', 'maybe');
    expect(readConsent()).toBe('pending');
    jar.jar.set('consent', 'denied');
    expect(readConsent()).toBe('denied');
  });

  it('tells its followers of each choice, once the cookie holds it', () => {
    vi.stubGlobal('document', cookieJar({}).document);
    vi.stubGlobal('window', { localStorage: { removeItem: vi.fn() }, sessionStorage: { removeItem: vi.fn() } });
    const seen: string[] = [];
    const stop = followConsent(() => seen.push(readConsent()));
    chooseConsent('granted', { privacyOption: false });
    chooseConsent('denied', { privacyOption: false });
    stop();
    chooseConsent('granted', { privacyOption: false });
    expect(seen).toEqual(['granted', 'denied']);
  });

  it('renders nothing known on the server and while hydrating, whatever the cookie says', () => {
    vi.stubGlobal('document', cookieJar({ consent: 'granted' }).document);
    function Prompt() {
      return createElement('p', null, String(useConsent()));
    }
    expect(renderToString(createElement(Prompt))).toBe('<p>null</p>');
  });
});
