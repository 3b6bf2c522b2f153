import type { PostHog } from 'posthog-js/dist/module.slim';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import type { VisitorIdState } from '#client/features/visitor/index.ts';
import { identityProperties, startPosthog, stopPosthog } from './posthog-client.ts';

/**
 * First-party analytics while `allowed` (consent granted): posthog-js starts once the visitor
 * identifier flow has settled, identifies the visitor when there is an identifier and no error,
 * and captures a page leave and a page view on every route change. Any failure to load it only
 * means no analytics.
 */
export function useAnalytics(allowed: boolean, visitor: VisitorIdState) {
  const [posthog, setPosthog] = useState<PostHog | null>(null);
  const location = useLocation();
  const settled = !visitor.loading && (visitor.visitorId !== null || visitor.error !== null);
  const identified = useRef<string | null>(null);
  const previousUrl = useRef<string | null>(null);

  useEffect(() => {
    if (!allowed || !settled || posthog) return;
    let current = true;
    startPosthog().then(
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
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new address is what this effect reacts to
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
    posthog.capture('$pageview');
  }, [posthog, location.pathname, location.search]);
}
