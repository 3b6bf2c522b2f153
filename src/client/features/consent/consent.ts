import { useSyncExternalStore } from 'react';
import { readCookie, writeCookie } from '#client/lib/cookies.ts';
import { storageEntry } from '#common/storage.ts';

/** The visitor's answer about analytics: none yet, yes or no. */
export type Consent = 'pending' | 'granted' | 'denied';

const CONSENT = storageEntry('consent');
const listeners = new Set<() => void>();

/**
 * Kept in a first-party cookie rather than local storage so that the server could read the
 * choice too (see docs/decisions/021-consent.md).
 */
export function readConsent(): Consent {
  const value = readCookie(CONSENT.name);
  return value === 'granted' || value === 'denied' ? value : 'pending';
}

export function chooseConsent(choice: 'granted' | 'denied') {
  writeCookie(CONSENT, choice);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
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
  return useSyncExternalStore(subscribe, readConsent, () => null);
}
