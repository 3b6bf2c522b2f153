import { RETENTION } from './retention.ts';

/**
 * Every cookie and browser storage key the product sets. The code that writes each one takes its
 * name and lifetime from here, and the cookie policy renders this list, so the policy cannot drift
 * from what the site really stores. Texts for each entry live in the `cookie` namespace under
 * `items.<id>`.
 */
export type StorageKind = 'cookie' | 'localStorage' | 'sessionStorage';
/** Days; until the visitor clears it; or until the tab is closed (session storage). */
export type Lifetime = { days: number } | 'untilCleared' | 'tab';

export interface StorageEntry {
  id: string;
  name: string;
  kind: StorageKind;
  lifetime: Lifetime;
  /**
   * Whether it is set only after the visitor agreed to it. `'withPrivacyOption'`: only when the
   * operator turned on the privacy option (see `SiteConfig.privacy`), else without asking.
   */
  needsConsent: boolean | 'withPrivacyOption';
}

export const STORAGE_ENTRIES = [
  { id: 'languageStored', name: 'lang', kind: 'localStorage', lifetime: 'untilCleared', needsConsent: false },
  { id: 'languageCookie', name: 'lang', kind: 'cookie', lifetime: { days: 365 }, needsConsent: false },
  { id: 'consent', name: 'consent', kind: 'cookie', lifetime: { days: 180 }, needsConsent: false },
  { id: 'visitorId', name: '_fpid', kind: 'cookie', lifetime: { days: 365 }, needsConsent: 'withPrivacyOption' },
  { id: 'analyticsCookie', name: 'ph_fpid', kind: 'cookie', lifetime: { days: 365 }, needsConsent: true },
  { id: 'analyticsStored', name: 'ph_fpid', kind: 'localStorage', lifetime: 'untilCleared', needsConsent: true },
  // posthog-js keeps the current session in session storage, under names derived from ph_fpid.
  { id: 'analyticsSession', name: 'ph_fpid', kind: 'sessionStorage', lifetime: 'tab', needsConsent: true },
  {
    id: 'analyticsSessionProperties',
    name: 'ph_fpid_session_registered_properties',
    kind: 'sessionStorage',
    lifetime: 'tab',
    needsConsent: true,
  },
  { id: 'analyticsWindowId', name: 'ph_fpid_window_id', kind: 'sessionStorage', lifetime: 'tab', needsConsent: true },
  {
    id: 'analyticsWindow',
    name: 'ph_fpid_primary_window_exists',
    kind: 'sessionStorage',
    lifetime: 'tab',
    needsConsent: true,
  },
  // The session of a signed-in visitor. Its lifetime is the session's absolute end; the server ends
  // it sooner when it lies unused (see SESSION_IDLE_SECONDS) or at sign-out.
  {
    id: 'session',
    name: '__Host-session',
    kind: 'cookie',
    lifetime: { days: RETENTION.sessionDays },
    needsConsent: false,
  },
  // Set and cleared with the session, readable by the pages (the session cookie is not): only a
  // page that finds it asks the server who is signed in, so other visitors load nothing for it.
  { id: 'signedIn', name: 'signed_in', kind: 'cookie', lifetime: { days: 30 }, needsConsent: false },
  // Given at each successful sign-in and kept after sign-out: the account's address signed by the
  // server (not the address itself), so that this browser's sign-ins go first while the site is
  // flooded with sign-ins from elsewhere (docs/decisions/056).
  { id: 'knownDevice', name: '__Host-device', kind: 'cookie', lifetime: { days: 90 }, needsConsent: false },
  // Set when the visitor, giving a second factor at sign-in, asks this browser to be trusted: a
  // random token whose hash the server keeps, so that sign-in here skips the second factor until
  // it lapses or the owner revokes it on the account page.
  {
    id: 'trustedBrowser',
    name: '__Host-trusted',
    kind: 'cookie',
    lifetime: { days: RETENTION.trustedBrowserDays },
    needsConsent: false,
  },
  // Set when the visitor leaves to sign in with an identity provider: a random token whose hash
  // names the sign-in on the server, so that only this browser can come back with the provider's
  // answer. Cleared on the way back; the sign-in it names lapses on the server within minutes.
  { id: 'oidcSignIn', name: '__Host-oidc', kind: 'cookie', lifetime: { days: 1 }, needsConsent: false },
  // Set by the visitor's first chat message, not before: a random token whose hash names their
  // conversation on the server. Every message sets it again for the full lifetime.
  { id: 'chat', name: '__Host-chat', kind: 'cookie', lifetime: { days: 30 }, needsConsent: false },
  // Set and cleared with it, readable by the pages (the token is not): only a page that finds it
  // loads the chat panel and asks for the conversation; other visitors load nothing for the chat.
  { id: 'chatActive', name: 'chat_active', kind: 'cookie', lifetime: { days: 30 }, needsConsent: false },
] as const satisfies readonly StorageEntry[];

export type StorageId = (typeof STORAGE_ENTRIES)[number]['id'];

export function storageEntry<Id extends StorageId>(id: Id): Extract<(typeof STORAGE_ENTRIES)[number], { id: Id }> {
  return STORAGE_ENTRIES.find((entry) => entry.id === id) as Extract<(typeof STORAGE_ENTRIES)[number], { id: Id }>;
}
