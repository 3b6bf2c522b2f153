import { useEffect, useRef } from 'react';
import { useAddress } from '#client/lib/address.tsx';
import { matchPage } from '#common/routes.ts';

/**
 * After a client-side navigation, scrolls a new page to the top and moves focus to its main region,
 * so keyboard and screen reader users start reading the new page, as after a full page load.
 * The first render, back/forward and a language switch (the same page in another language: the
 * visitor stays where they are) keep focus where it is.
 */
export function useNavigationFocus() {
  const { pathname, type } = useAddress();
  const previous = useRef<string | null>(null);

  useEffect(() => {
    const before = previous.current;
    previous.current = pathname;
    if (before === null || type === 'pop') return;
    if (matchPage(before)?.page === matchPage(pathname)?.page) return;
    window.scrollTo(0, 0);
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname, type]);
}
