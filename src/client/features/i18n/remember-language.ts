import { writeCookie } from '#client/lib/cookies.ts';
import type { Language } from '#common/languages.ts';
import { storageEntry } from '#common/storage.ts';

const LANGUAGE_STORED = storageEntry('languageStored');
const LANGUAGE_COOKIE = storageEntry('languageCookie');

/** Where the language is kept; tests pass their own. */
export interface LanguageStorage {
  setItem(name: string, value: string): void;
  writeCookie(entry: typeof LANGUAGE_COOKIE, value: string): void;
}

const browserStorage: LanguageStorage = {
  setItem: (name, value) => window.localStorage.setItem(name, value),
  writeCookie: (entry, value) => writeCookie(entry, value, { sameSite: 'Strict' }),
};

/**
 * Caches the language of the page on screen in local storage, where the root page's detection
 * looks after the path: a visitor who read /nl/about and comes back to `/` gets Dutch. A functional
 * preference that never leaves the browser, so it needs no consent (the policies say so).
 */
export function cacheLanguage(language: Language, storage: Pick<LanguageStorage, 'setItem'> = browserStorage) {
  try {
    storage.setItem(LANGUAGE_STORED.name, language);
  } catch {
    // Storage may be full or blocked; the root page then follows the browser's languages.
  }
}

/**
 * Keeps the language the visitor chose (in the switcher or the footer) in local storage, for the
 * root page, and in a cookie, for the server's answer to the bare address. Only a choice sets the
 * cookie: reading a page in a language caches it in local storage alone.
 */
export function rememberLanguage(language: Language, storage: LanguageStorage = browserStorage) {
  cacheLanguage(language, storage);
  storage.writeCookie(LANGUAGE_COOKIE, language);
}
