import { useSyncExternalStore } from 'react';
import { deleteCookie, readCookie, writeCookie } from '#client/lib/cookies.ts';
import { STORAGE_ENTRIES, type StorageEntry, storageEntry } from '#common/storage.ts';

/** The visitor's answer about analytics: none yet, yes or no. */
export type Consent = 'pending' | 'granted' | 'denied';

const CONSENT = storageEntry('consent');
// Followed by hand rather than made with lib/create-store.ts: the choice lives in its cookie, and
// this module comes with every public page, where a helper shared with the chat would be one more
// chunk to fetch (decision 096).
const listeners = new Set<() => void>();

/**
 * Kept in a first-party cookie rather than local storage so that the server could read the
 * choice too (see docs/decisions/021-consent.md).
 */
export function readConsent(): Consent {
  const value = readCookie(CONSENT.name);
  return value === 'granted' || value === 'denied' ? value : 'pending';
}

/** Whether an entry waits for the visitor's consent on a site with the privacy option on or off. */
export function needsConsent(entry: StorageEntry, privacyOption: boolean): boolean {
  return entry.needsConsent === 'withPrivacyOption' ? privacyOption : entry.needsConsent;
}

/** Where the browser keeps what consent allowed; tests pass their own. */
export interface ConsentedStorage {
  deleteCookie(name: string): void;
  removeItem(kind: 'localStorage' | 'sessionStorage', name: string): void;
}

const browserStorage: ConsentedStorage = {
  deleteCookie,
  removeItem: (kind, name) => window[kind].removeItem(name),
};

/**
 * Removes every cookie and stored item that needs consent on this site: the analytics items, and
 * with the privacy option the visitor identifier (`_fpid`) too, so that a withdrawal leaves nothing
 * behind that only consent allowed.
 */
export function forgetConsentedItems(privacyOption: boolean, storage: ConsentedStorage = browserStorage) {
  for (const entry of STORAGE_ENTRIES) {
    if (!needsConsent(entry, privacyOption)) continue;
    if (entry.kind === 'cookie') storage.deleteCookie(entry.name);
    else storage.removeItem(entry.kind, entry.name);
  }
}

/** Records the visitor's answer; a refusal or withdrawal removes what consent had allowed at once. */
export function chooseConsent(choice: 'granted' | 'denied', options: { privacyOption: boolean }) {
  writeCookie(CONSENT, choice);
  if (choice === 'denied') forgetConsentedItems(options.privacyOption);
  for (const listener of listeners) listener();
}

/** Hears of every choice made on this page; returns the function that stops it. */
export function followConsent(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * The current choice, or null while the page hydrates: the prerendered HTML cannot know it, so
 * nothing that depends on it renders before hydration is over.
 */
export function useConsent(): Consent | null {
  return useSyncExternalStore(followConsent, readConsent, () => null);
}
