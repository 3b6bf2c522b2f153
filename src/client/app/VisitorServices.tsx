import { useEffect, useState } from 'react';
import { useAnalytics } from '../features/analytics/use-analytics.ts';
import { ConsentPrompt } from '../features/consent/ConsentPrompt.tsx';
import { useConsent } from '../features/consent/consent.ts';
import { useSiteConfig } from '../features/site/site-config.tsx';
import { startTracing } from '../features/tracing/browser-tracing.ts';
import { useVisitorId } from '../features/visitor/use-visitor-id.ts';

function useTracingStarted(): boolean {
  const [started, setStarted] = useState(false);
  useEffect(() => {
    void startTracing().then(() => setStarted(true));
  }, []);
  return started;
}

/**
 * Everything the visit needs beyond the page, loaded after the first paint: tracing first (so the
 * identifier request already carries `traceparent`), then the visitor identifier (with the privacy
 * option, only after consent), analytics when consent is granted, and the consent prompt while the
 * visitor has not answered.
 */
export default function VisitorServices() {
  const consent = useConsent();
  const { privacy } = useSiteConfig();
  const tracing = useTracingStarted();
  const identify = tracing && consent !== null && (!privacy.fingerprintAfterConsent || consent === 'granted');
  const visitor = useVisitorId(identify);
  useAnalytics(consent === 'granted', visitor);
  return consent === 'pending' ? <ConsentPrompt /> : null;
}
