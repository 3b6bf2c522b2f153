import { type ComponentType, startTransition, useEffect, useState } from 'react';
import { whenPainted } from './first-paint.ts';

/**
 * Calls back once the browser has reported the page's first paint (the app itself is loaded only
 * then, so this is normally at once) and is idle, or after a short wait where there is no idle
 * callback. Nothing to cancel: a late state update of an unmounted component is ignored.
 */
function afterPaintAndIdle(callback: () => void) {
  whenPainted(window, () =>
    'requestIdleCallback' in window ? requestIdleCallback(callback, { timeout: 1_000 }) : setTimeout(callback, 200),
  );
}

/**
 * The default export of a module fetched once the page has painted and the browser is idle, or
 * null until then and if the fetch fails (the page stays as it is). `load` must be the same
 * function on every render (declare it at module level).
 */
export function useComponentAfterPaint(load: () => Promise<{ default: ComponentType }>): ComponentType | null {
  const [Component, setComponent] = useState<ComponentType | null>(null);
  useEffect(
    () =>
      afterPaintAndIdle(() =>
        load().then(
          // A transition renders in slices that yield to the browser; an ordinary update here
          // would mount the component in one task (decision 088).
          (module) => startTransition(() => setComponent(() => module.default)),
          () => {},
        ),
      ),
    [load],
  );
  return Component;
}

const loadVisitorServices = () => import('./VisitorServices.tsx');

/**
 * Renders nothing until the page has painted, then fetches the visitor services (consent,
 * identifier, analytics, tracing). Nothing of them is in the entry chunk or in the prerendered
 * HTML, so they cost the first paint nothing and cannot upset hydration.
 */
export function AfterFirstPaint() {
  const Services = useComponentAfterPaint(loadVisitorServices);
  return Services ? <Services /> : null;
}
