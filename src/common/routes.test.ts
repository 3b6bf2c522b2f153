import { describe, expect, it } from 'vitest';
import { isIndexed, sitemapPaths } from './head.ts';
import { LANGUAGES } from './languages.ts';
import {
  allPagePaths,
  bootNamespaces,
  CONSOLE_PAGES,
  type ConsolePageId,
  consolePath,
  isConsolePath,
  matchConsolePage,
  matchPage,
  navPages,
  PAGE_IDS,
  PAGES,
  pageMetaKey,
  pageNamespaces,
  pagePath,
  privacySettingsPath,
  resolvePath,
  switchLanguagePath,
} from './routes.ts';

describe('resolvePath', () => {
  it('leaves the root to the browser', () => {
    expect(resolvePath('/')).toEqual({ kind: 'root' });
  });

  it.each(LANGUAGES)('serves every page in %s', (language) => {
    expect(resolvePath(`/${language}`)).toEqual({ kind: 'page', language, page: 'home' });
    expect(resolvePath(`/${language}/about`)).toEqual({ kind: 'page', language, page: 'about' });
    expect(resolvePath(`/${language}/privacy-policy`)).toEqual({ kind: 'page', language, page: 'privacy' });
    expect(resolvePath(`/${language}/terms`)).toEqual({ kind: 'page', language, page: 'terms' });
    expect(resolvePath(`/${language}/cookie-policy`)).toEqual({ kind: 'page', language, page: 'cookies' });
    expect(resolvePath(`/${language}/contact`)).toEqual({ kind: 'page', language, page: 'contact' });
    expect(resolvePath(`/${language}/login`)).toEqual({ kind: 'page', language, page: 'login' });
    expect(resolvePath(`/${language}/register`)).toEqual({ kind: 'page', language, page: 'register' });
    expect(resolvePath(`/${language}/validation`)).toEqual({ kind: 'page', language, page: 'validation' });
    expect(resolvePath(`/${language}/forgot-password`)).toEqual({ kind: 'page', language, page: 'forgotPassword' });
    expect(resolvePath(`/${language}/account`)).toEqual({ kind: 'page', language, page: 'account' });
    expect(resolvePath(`/${language}/imprint`)).toEqual({ kind: 'page', language, page: 'imprint' });
  });

  it('keeps a path without a supported language under /en, with its query', () => {
    expect(resolvePath('/about')).toEqual({ kind: 'redirect', location: '/en/about' });
    expect(resolvePath('/cookie-policy', '?x=1')).toEqual({ kind: 'redirect', location: '/en/cookie-policy?x=1' });
  });

  it('sends every other path to /en', () => {
    for (const path of ['/foo', '/foo/bar', '/es/about', '/EN/about', '/en/nope', '/it/about/more', '/en//about']) {
      expect(resolvePath(path, '?q=1')).toEqual({ kind: 'redirect', location: '/en' });
    }
  });

  it('drops a trailing slash', () => {
    expect(resolvePath('/it/')).toEqual({ kind: 'redirect', location: '/it' });
    expect(resolvePath('/de/about/', '?a=b')).toEqual({ kind: 'redirect', location: '/de/about?a=b' });
  });

  it('never reflects hostile input', () => {
    expect(resolvePath('/..%2f..%2fetc/passwd')).toEqual({ kind: 'redirect', location: '/en' });
    expect(resolvePath('/%3Cscript%3Ealert(1)%3C/script%3E')).toEqual({ kind: 'redirect', location: '/en' });
    expect(resolvePath(`/${'a'.repeat(5000)}`)).toEqual({ kind: 'redirect', location: '/en' });
    expect(resolvePath('/about', `?${'q'.repeat(5000)}`)).toEqual({ kind: 'redirect', location: '/en/about' });
  });
});

describe('matchPage and pagePath', () => {
  it('round-trip every page in every language', () => {
    const paths = allPagePaths();
    expect(paths).toHaveLength(LANGUAGES.length * PAGE_IDS.length);
    for (const { language, page, path } of paths) {
      expect(pagePath(language, page)).toBe(path);
      expect(matchPage(path)).toEqual({ language, page });
    }
  });
});

describe('sitemapPaths', () => {
  it('leaves out the pages only reached by doing something', () => {
    expect(isIndexed('contactSent')).toBe(false);
    expect(isIndexed('contact')).toBe(true);
    expect(sitemapPaths().map(({ path }) => path)).not.toContain('/it/contact/sent');
    expect(matchPage('/it/contact/sent')).toEqual({ language: 'it', page: 'contactSent' });
  });
});

describe('pageNamespaces, bootNamespaces and pageMetaKey', () => {
  it('give each page the common texts, its own and what its forms need', () => {
    expect(pageNamespaces('home')).toEqual(['common', 'home']);
    expect(pageNamespaces('about')).toEqual(['common', 'about', 'legal']);
    expect(pageNamespaces('privacy')).toEqual(['common', 'privacy', 'legal']);
    expect(pageNamespaces('imprint')).toEqual(['common', 'legal']);
    expect(pageNamespaces('login')).toEqual(['common', 'login', 'errors']);
    expect(pageNamespaces('account')).toEqual(['common', 'login', 'errors', 'settings']);
  });

  it('leave out of the boot data only the texts that come after the paint', () => {
    expect(bootNamespaces('privacy')).toEqual(['common']);
    expect(bootNamespaces('account')).toEqual(['common']);
    expect(bootNamespaces('about')).toEqual(pageNamespaces('about'));
    expect(bootNamespaces('imprint')).toEqual(pageNamespaces('imprint'));
  });

  it('hand every page the common texts, which its frame needs to hydrate', () => {
    for (const page of PAGE_IDS) expect(bootNamespaces(page)[0], page).toBe('common');
  });

  it('find the title of pages that share a namespace', () => {
    expect(pageMetaKey('login')).toBe('meta');
    expect(pageMetaKey('forgotPassword')).toBe('forgot.meta');
    expect(pageMetaKey('account')).toBe('account.meta');
    expect(pageMetaKey('imprint')).toBe('imprint.meta');
  });

  it('keep sign-in pages out of the shared layout, as the specification says', () => {
    expect(PAGE_IDS.filter((page) => !PAGES[page].layout)).toEqual([
      'login',
      'register',
      'validation',
      'forgotPassword',
      'resetPassword',
      'emailUndo',
    ]);
  });
});

describe('switchLanguagePath', () => {
  it('replaces the prefix, keeping path, query and hash', () => {
    expect(switchLanguagePath({ pathname: '/it/about', search: '?a=1', hash: '#team' }, 'fr')).toBe(
      '/fr/about?a=1#team',
    );
    expect(switchLanguagePath({ pathname: '/th' }, 'en')).toBe('/en');
  });

  it('adds the prefix when there is none, English included', () => {
    expect(switchLanguagePath({ pathname: '/about' }, 'en')).toBe('/en/about');
    expect(switchLanguagePath({ pathname: '/' }, 'de')).toBe('/de');
  });
});

describe('privacySettingsPath', () => {
  it('points at the choice section of the cookie policy in the language given', () => {
    expect(privacySettingsPath('nl')).toBe('/nl/cookie-policy#your-choice');
  });
});

describe('the layout navigation', () => {
  it('comes from the page table, in its order', () => {
    expect(navPages('header')).toEqual(['home', 'about', 'contact']);
    expect(navPages('footer')).toEqual(['privacy', 'terms', 'cookies', 'imprint']);
  });
});

describe('the console pages', () => {
  it('build their addresses under the console root', () => {
    expect(consolePath('inbox')).toBe('/console');
    expect(consolePath('inbox', { query: '?status=new' })).toBe('/console?status=new');
    expect(consolePath('message', { id: 'a b/c' })).toBe('/console/messages/a%20b%2Fc');
    expect(consolePath('staff')).toBe('/console/staff');
  });

  it('match every path they build, and nothing else', () => {
    for (const page of Object.keys(CONSOLE_PAGES) as ConsolePageId[]) {
      const id = page === 'message' ? 'm-1 é' : page === 'textsNamespace' ? 'home' : undefined;
      expect(matchConsolePage(consolePath(page, { id }))).toEqual(id ? { page, id } : { page });
    }
    expect(matchConsolePage('/console/')).toEqual({ page: 'inbox' });
    expect(matchConsolePage('/console/chat/')).toEqual({ page: 'chat' });
    expect(matchConsolePage('/console/messages/')).toBeNull();
    expect(matchConsolePage('/console/messages/a/b')).toBeNull();
    expect(matchConsolePage('/console/messages/%E0%A4%A')).toBeNull();
    expect(matchConsolePage('/console/nothing')).toBeNull();
    // The publish step is a page of its own, not a namespace called "publish".
    expect(matchConsolePage('/console/texts/publish')).toEqual({ page: 'textsPublish' });
    expect(matchConsolePage('/console/texts/home/x')).toBeNull();
    expect(matchConsolePage('/consoles')).toBeNull();
    expect(matchConsolePage('/en/console')).toBeNull();
    expect(isConsolePath('/console/anything')).toBe(true);
    expect(isConsolePath('/consoles')).toBe(false);
  });
});
