import { type ComponentType, useEffect, useState } from 'react';

/**
 * Calls back once the page has loaded and the browser is idle (a short wait where there is no idle
 * callback): the same moment the visitor services start (see app/AfterFirstPaint.tsx).
 */
function afterFirstPaint(callback: () => void) {
  const idle = () =>
    'requestIdleCallback' in window ? requestIdleCallback(callback, { timeout: 2_000 }) : setTimeout(callback, 200);
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

/**
 * Where the chat goes in the shared layout. It renders nothing in the prerendered page and at
 * hydration, then fetches the launcher after the first paint; the panel's code comes only when the
 * visitor opens it or already has a conversation. A failed fetch leaves the page as it is.
 */
export function ChatSlot() {
  const [Launcher, setLauncher] = useState<ComponentType | null>(null);
  useEffect(
    () =>
      afterFirstPaint(() =>
        import('./ChatLauncher.tsx').then(
          (module) => setLauncher(() => module.default),
          () => {},
        ),
      ),
    [],
  );
  return Launcher ? <Launcher /> : null;
}
