import type { DetectorOptions } from 'i18next-browser-languagedetector';
import { storageEntry } from '#common/storage.ts';

const LANGUAGE_STORED = storageEntry('languageStored');

/**
 * Where the root page looks for a language, in order: the path, a stored choice, the browser.
 * Pages take their language from the path. Nothing is cached on detection: only a choice in the
 * switcher is kept (see remember-language.ts).
 */
export const DETECTION: DetectorOptions = {
  order: ['path', 'localStorage', 'navigator'],
  lookupFromPathIndex: 0,
  lookupLocalStorage: LANGUAGE_STORED.name,
  caches: [],
};
