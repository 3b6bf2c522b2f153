import { useEffect, useRef } from 'react';
import { useAddress } from '#client/lib/address.tsx';
import { UNCONSENTED_VIEW_PATH } from '#common/analytics.ts';

interface Pending {
  key: string;
  path: string;
  sent: boolean;
}

/**
 * Counts each page view of a visitor who has not allowed analytics (decision 180): the page's path
 * only, sent when the visitor leaves the page (another address, the tab hidden or closed) and only
 * if consent is still not given then, so that a page on which the visitor says yes is counted once,
 * by the consenting beacon. No cookie or identifier goes with it; the server adds one to a daily
 * total for the page and its language.
 */
export function useUnconsentedCount(consent: string | null) {
  const location = useAddress();
  const consentNow = useRef(consent);
  consentNow.current = consent;
  const pending = useRef<Pending | null>(null);

  useEffect(() => {
    const hidden = () => {
      if (document.visibilityState === 'hidden') flush(pending.current, consentNow.current);
    };
    const left = () => flush(pending.current, consentNow.current);
    window.addEventListener('pagehide', left);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('pagehide', left);
      document.removeEventListener('visibilitychange', hidden);
    };
  }, []);

  const known = consent !== null;
  useEffect(() => {
    if (!known || pending.current?.key === location.key) return;
    flush(pending.current, consentNow.current);
    pending.current = { key: location.key, path: window.location.pathname, sent: false };
  }, [location.key, known]);
}

function flush(view: Pending | null, consent: string | null) {
  if (!view || view.sent || consent === 'granted') return;
  view.sent = true;
  fetch(UNCONSENTED_VIEW_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ path: view.path }),
    keepalive: true,
    credentials: 'omit',
  }).catch(() => {});
}
