import type { DetectorOptions } from 'i18next-browser-languagedetector';
import { storageEntry } from '#common/storage.ts';

const LANGUAGE_STORED = storageEntry('languageStored');
const LANGUAGE_COOKIE = storageEntry('languageCookie');
const MINUTES_PER_DAY = 24 * 60;

/**
 * Where the language choice is looked for, in order, and where it is kept. Pages take their
 * language from the path; the root page, which has none, asks storage and then the browser.
 */
export const DETECTION: DetectorOptions = {
  order: ['path', 'localStorage', 'navigator'],
  lookupFromPathIndex: 0,
  lookupLocalStorage: LANGUAGE_STORED.name,
  lookupCookie: LANGUAGE_COOKIE.name,
  caches: ['localStorage', 'cookie'],
  cookieMinutes: LANGUAGE_COOKIE.lifetime.days * MINUTES_PER_DAY,
  cookieOptions: { path: '/', sameSite: 'strict' },
};
