import type { DetectorOptions } from 'i18next-browser-languagedetector';
import { storageEntry } from '#common/storage.ts';

const LANGUAGE_STORED = storageEntry('languageStored');

/**
 * Where the root page looks for a language, in order: the path, a stored choice, the browser.
 * Pages take their language from the path and cache it in local storage as they show (see
 * `cacheLanguage` in remember-language.ts), so the detector itself caches nothing.
 */
export const DETECTION: DetectorOptions = {
  order: ['path', 'localStorage', 'navigator'],
  lookupFromPathIndex: 0,
  lookupLocalStorage: LANGUAGE_STORED.name,
  caches: [],
};
