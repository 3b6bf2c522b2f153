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

/** The page view of the page the visit started on, as the inline script counted it; the app takes it over. */
export function firstPageView(): PageView | null {
  return window.__pageView ?? null;
}
