import { useEffect, useState } from 'react';
import { useAnalytics, useUnconsentedCount } from '#client/features/analytics/index.ts';
import { ConsentPrompt, useConsent } from '#client/features/consent/index.ts';
import { startTracing } from '#client/features/tracing/index.ts';
import type { VisitorIdState } from '#client/features/visitor/index.ts';
import { useVisitorId } from '#client/features/visitor/index.ts';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { whenQuiet } from './quiet.ts';

/**
 * When the heavy work (tracing, computing the fingerprint, analytics) may start after the prompt:
 * computing a fingerprint takes several long tasks on a slow phone, and they must not compete with
 * the visitor's first reading and tapping, nor land while the page is still busy loading.
 */
const SETTLE = { minMs: 3_000, quietMs: 2_000, maxMs: 10_000 };

/** True once the page has settled (whenQuiet), in an idle moment; then tracing has started. */
function useSettledAndTraced(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const start = () => startTracing().then(() => setReady(true));
    return whenQuiet(() => {
      if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 2_000 });
      else void start();
    }, SETTLE);
  }, []);
  return ready;
}

/**
 * Everything the visit needs beyond the page, loaded after the first paint: the consent prompt at
 * once while the visitor has not answered; once the page has settled, tracing (first, so the
 * identifier request already carries `traceparent`), then the visitor identifier (with the privacy
 * option, only after consent) and analytics when consent is granted.
 */
export default function VisitorServices() {
  const consent = useConsent();
  const { privacy } = useSiteConfig();
  const settled = useSettledAndTraced();
  const identify = settled && consent !== null && (!privacy.fingerprintAfterConsent || consent === 'granted');
  const visitor = useVisitorId(identify);
  useAnalytics(consent === 'granted', visitor);
  useUnconsentedCount(consent);
  useVisitorMark(settled, identify, visitor);
  return consent === 'pending' ? <ConsentPrompt /> : null;
}

/**
 * Marks the document with where the identifier flow stands once the page has settled, for tests
 * that must know nothing more will be sent: `off` (the privacy option waits for consent),
 * `identified` or `failed`.
 */
function useVisitorMark(settled: boolean, identify: boolean, visitor: VisitorIdState) {
  const mark = !settled ? null : !identify ? 'off' : visitor.visitorId ? 'identified' : visitor.error ? 'failed' : null;
  useEffect(() => {
    if (mark) document.documentElement.dataset.visitor = mark;
    else delete document.documentElement.dataset.visitor;
  }, [mark]);
}
