import { useEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/**
 * After a client-side navigation, scrolls a new page to the top and moves focus to its main region,
 * so keyboard and screen reader users start reading the new page, as after a full page load.
 * The first render, back/forward and a language switch (which passes `keepFocus` in the location
 * state, since the visitor stays on the same page) keep focus where it is.
 */
export function useNavigationFocus() {
  const { pathname, state } = useLocation();
  const keepFocus = (state as { keepFocus?: boolean } | null)?.keepFocus === true;
  const type = useNavigationType();
  const first = useRef(true);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (type === 'POP' || keepFocus) return;
    window.scrollTo(0, 0);
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname, type, keepFocus]);
}
