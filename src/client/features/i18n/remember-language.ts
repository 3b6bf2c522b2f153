import { writeCookie } from '#client/lib/cookies.ts';
import type { Language } from '#common/languages.ts';
import { storageEntry } from '#common/storage.ts';

const LANGUAGE_STORED = storageEntry('languageStored');
const LANGUAGE_COOKIE = storageEntry('languageCookie');

/** Where the choice is kept; tests pass their own. */
export interface LanguageStorage {
  setItem(name: string, value: string): void;
  writeCookie(entry: typeof LANGUAGE_COOKIE, value: string): void;
}

const browserStorage: LanguageStorage = {
  setItem: (name, value) => window.localStorage.setItem(name, value),
  writeCookie: (entry, value) => writeCookie(entry, value, { sameSite: 'Strict' }),
};

/**
 * Keeps the language the visitor chose (in the switcher or the footer) in local storage, for the
 * root page, and in a cookie, for the server's answer to the bare address. Only a choice is kept:
 * reading a page in a language stores nothing.
 */
export function rememberLanguage(language: Language, storage: LanguageStorage = browserStorage) {
  try {
    storage.setItem(LANGUAGE_STORED.name, language);
  } catch {
    // Storage may be full or blocked; the cookie still carries the choice.
  }
  storage.writeCookie(LANGUAGE_COOKIE, language);
}
