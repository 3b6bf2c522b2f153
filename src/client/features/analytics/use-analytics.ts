import type { PostHog } from 'posthog-js/dist/module.slim';
import { useEffect, useRef, useState } from 'react';
import type { VisitorIdState } from '#client/features/visitor/index.ts';
import { useAddress } from '#client/lib/address.tsx';
import { BEACON_NAMES, takeFirstPageView } from './first-page-view.ts';
import { countPageView, type PageView } from './page-view-beacon.ts';
import { identityProperties, startPosthog, stopPosthog } from './posthog-client.ts';

/**
 * First-party analytics while `allowed` (consent granted). Until posthog-js runs, each page view
 * goes as a small beacon (the page's own script sent the first one already): under the visitor
 * identifier once there is one, anonymously if the page is left before. posthog-js starts once the
 * identifier flow has settled, identifies the visitor when there is an identifier and no error, and
 * captures a page leave and a page view on every later route change; the page view a beacon
 * already counted is not captured again. Any failure to load it only means no analytics.
 */
export function useAnalytics(allowed: boolean, visitor: VisitorIdState) {
  const [posthog, setPosthog] = useState<PostHog | null>(null);
  const location = useAddress();
  const settled = !visitor.loading && (visitor.visitorId !== null || visitor.error !== null);
  const identified = useRef<string | null>(null);
  const previousUrl = useRef<string | null>(null);
  /** Page views sent (or waiting to be sent) as beacons. */
  const beacons = useRef<PageView[]>([]);
  /** The address whose view the last beacon counted, until posthog-js has started there. */
  const counted = useRef<string | null>(null);

  useEffect(() => {
    if (!allowed || posthog || counted.current === location.key) return;
    // The page as loaded was counted by its inline script; every later address gets a beacon of its own.
    const view = takeFirstPageView() ?? countPageView(window, BEACON_NAMES);
    if (!view) return;
    view.sendKnown();
    beacons.current.push(view);
    counted.current = location.key;
  }, [allowed, posthog, location.key]);

  useEffect(() => {
    if (!allowed || visitor.loading) return;
    const id = visitor.error ? null : visitor.visitorId;
    if (id === null && !visitor.error) return;
    for (const view of beacons.current) view.send(id);
  }, [allowed, visitor]);

  useEffect(() => {
    if (!allowed || !settled || posthog) return;
    let current = true;
    const anonymous = beacons.current.find((view) => view.anonymousId)?.anonymousId ?? null;
    startPosthog(anonymous).then(
      (instance) => current && setPosthog(instance),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [allowed, settled, posthog]);

  useEffect(() => {
    if (!posthog || allowed) return;
    void stopPosthog(posthog);
    setPosthog(null);
    identified.current = null;
    previousUrl.current = null;
  }, [allowed, posthog]);

  useEffect(() => {
    const { visitorId, error } = visitor;
    if (!posthog || !visitorId || error || identified.current === visitorId) return;
    identified.current = visitorId;
    posthog.identify(visitorId, identityProperties());
  }, [posthog, visitor]);

  // Runs after the identification above, so the first page view already carries the identifier.
  useEffect(() => {
    if (!posthog) return;
    const url = window.location.href;
    if (previousUrl.current === url) return;
    if (previousUrl.current) {
      posthog.capture('$pageleave', {
        $current_url: previousUrl.current,
        $pathname: new URL(previousUrl.current).pathname,
      });
    }
    previousUrl.current = url;
    // The address posthog-js starts on was counted by a beacon; from then on it counts every view.
    if (counted.current !== location.key) posthog.capture('$pageview');
    counted.current = null;
  }, [posthog, location.pathname, location.search, location.key]);
}
