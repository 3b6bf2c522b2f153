import { type ComponentType, useEffect, useState } from 'react';

/**
 * Calls back once the page has loaded and the browser is idle (or after a short wait where there
 * is no idle callback). Nothing to cancel: a late state update of an unmounted component is ignored.
 */
function afterLoadAndIdle(callback: () => void) {
  const idle = () =>
    'requestIdleCallback' in window ? requestIdleCallback(callback, { timeout: 2_000 }) : setTimeout(callback, 200);
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

/**
 * Renders nothing until the page has loaded and painted, then fetches the visitor services
 * (consent, identifier, analytics, tracing). Nothing of them is in the entry chunk or in the
 * prerendered HTML, so they cost the first paint nothing and cannot upset hydration. A failed
 * fetch of their chunk leaves the page as it is.
 */
export function AfterFirstPaint() {
  const [Services, setServices] = useState<ComponentType | null>(null);
  useEffect(
    () =>
      afterLoadAndIdle(() =>
        import('./VisitorServices.tsx').then(
          (module) => setServices(() => module.default),
          () => {},
        ),
      ),
    [],
  );
  return Services ? <Services /> : null;
}
