import type { PostHog } from 'posthog-js/dist/module.slim';
import { forgetConsentedItems, readConsent } from '#client/features/consent/index.ts';
import { POSTHOG_BROWSER_KEY, POSTHOG_PATH } from '#common/analytics.ts';
import { storageEntry } from '#common/storage.ts';

const ANALYTICS_COOKIE = storageEntry('analyticsCookie');

let starts = 0;

/**
 * posthog-js, fetched and started only once the visitor agreed. The slim build leaves out
 * recordings, surveys and the rest, which the site does not use; every request goes to the site's
 * own origin. posthog-js names its cookie and local storage item `ph_` + persistence_name.
 * `anonymousId`: the id a page view beacon went under anonymously, which posthog-js then takes as
 * its own anonymous id (unless it has stored one), so both count one visitor.
 */
export async function startPosthog(anonymousId: string | null = null): Promise<PostHog> {
  const { posthog } = await import('posthog-js/dist/module.slim');
  // A named instance each time: after consent was withdrawn and given again in the same page, the
  // instance that was shut down stays shut down.
  starts += 1;
  return posthog.init(
    POSTHOG_BROWSER_KEY,
    {
      api_host: `${window.location.origin}${POSTHOG_PATH}`,
      persistence: 'localStorage+cookie',
      persistence_name: ANALYTICS_COOKIE.name.replace(/^ph_/, ''),
      cookie_expiration: ANALYTICS_COOKIE.lifetime.days,
      secure_cookie: true,
      cross_subdomain_cookie: false,
      person_profiles: 'identified_only',
      ...(anonymousId ? { bootstrap: { distinctID: anonymousId } } : {}),
      // Page views are captured on every route change by the app itself; page leaves on unload too.
      capture_pageview: false,
      capture_pageleave: true,
      autocapture: false,
      capture_heatmaps: false,
      capture_dead_clicks: false,
      capture_exceptions: false,
      capture_performance: false,
      disable_session_recording: true,
      disable_surveys: true,
      disable_product_tours: true,
      disable_conversations: true,
      disable_web_experiments: true,
      // A withdrawn consent stops every event at once, whatever posthog-js still has queued.
      before_send: (event) => (readConsent() === 'granted' ? event : null),
    },
    `site-${starts}`,
  );
}

/**
 * After consent is withdrawn: posthog-js stops (`before_send` already drops anything left) and
 * everything stored that needed consent is removed, including what it wrote while stopping.
 */
export async function stopPosthog(posthog: PostHog) {
  posthog.set_config({ disable_persistence: true });
  await posthog.shutdown().catch(() => {});
  forgetConsentedItems(false);
}

/** The person properties sent when the visitor is identified. */
export function identityProperties() {
  const { hostname } = window.location;
  return {
    environment: hostname === 'localhost' || hostname === '127.0.0.1' ? 'development' : 'production',
    user_agent: navigator.userAgent,
    language: navigator.language,
    time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
}
