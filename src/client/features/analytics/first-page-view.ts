import { POSTHOG_BROWSER_KEY, POSTHOG_PATH } from '#common/analytics.ts';
import { storageEntry } from '#common/storage.ts';
import type { BeaconNames, PageView } from './page-view-beacon.ts';

declare global {
  interface Window {
    /** The page view the page's inline script counted, if the visitor had consented (see document.ts). */
    __pageView?: PageView | null;
  }
}

export const BEACON_NAMES: BeaconNames = {
  consent: storageEntry('consent').name,
  visitor: storageEntry('visitorId').name,
  endpoint: `${POSTHOG_PATH}/e/`,
  token: POSTHOG_BROWSER_KEY,
};

/**
 * The page view the inline script counted for the page as loaded, once: the app takes it over for
 * its first address, whatever key that address's history entry holds (a reload keeps the key).
 */
export function takeFirstPageView(): PageView | null {
  const view = window.__pageView ?? null;
  window.__pageView = null;
  return view;
}
