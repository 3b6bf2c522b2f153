import { type ComponentType, startTransition, useEffect, useState } from 'react';
import { whenPainted } from './first-paint.ts';

/**
 * Calls back once the browser has reported the page's first paint (the app itself is loaded only
 * then, so this is normally at once) and is idle, or after a short wait where there is no idle
 * callback. Nothing to cancel: a late state update of an unmounted component is ignored.
 */
export function afterPaintAndIdle(callback: () => void) {
  whenPainted(window, () =>
    'requestIdleCallback' in window ? requestIdleCallback(callback, { timeout: 1_000 }) : setTimeout(callback, 200),
  );
}

/**
 * Renders nothing until the page has painted, then fetches the visitor services (consent,
 * identifier, analytics, tracing). Nothing of them is in the entry chunk or in the prerendered
 * HTML, so they cost the first paint nothing and cannot upset hydration. A failed fetch of their
 * chunk leaves the page as it is.
 */
export function AfterFirstPaint() {
  const [Services, setServices] = useState<ComponentType | null>(null);
  useEffect(
    () =>
      afterPaintAndIdle(() =>
        import('./VisitorServices.tsx').then(
          // A transition renders in slices that yield to the browser; an ordinary update here
          // would mount the prompt in one task (decision 088).
          (module) => startTransition(() => setServices(() => module.default)),
          () => {},
        ),
      ),
    [],
  );
  return Services ? <Services /> : null;
}
