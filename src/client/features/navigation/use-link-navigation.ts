import { useEffect } from 'react';
import { isPlainClick, navigate } from '#client/lib/address.tsx';

/**
 * The path an ordinary left click on a link should reach inside the app, or null when the browser
 * should follow the link itself: a new tab or window, a download, another site or a path the app
 * does not render (the console, the API), and a jump within the page.
 */
function inAppPath(event: MouseEvent, here: Location, shows: (pathname: string) => boolean): string | null {
  if (!isPlainClick(event)) return null;
  const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return null;
  const url = new URL(anchor.href);
  if (url.origin !== here.origin || !shows(url.pathname)) return null;
  if (url.hash && url.pathname === here.pathname && url.search === here.search) return null;
  return url.pathname + url.search + url.hash;
}

/**
 * Links in the app are plain anchors, as the server writes them; one listener on the document turns
 * a click on one into a client-side navigation. A link component per anchor cost a component, three
 * hooks and a handler each while the page hydrates, for two dozen links on every page.
 * A link that carries navigation state (an address passed on to the next form) is a `StateLink`:
 * it handles its own click, and this listener leaves a handled click alone. `shows` says which
 * paths the app renders: the site's pages for the site, the console's for the console.
 */
export function useLinkNavigation(shows: (pathname: string) => boolean) {
  useEffect(() => {
    const follow = (event: MouseEvent) => {
      const path = inAppPath(event, window.location, shows);
      if (path === null) return;
      event.preventDefault();
      const here = window.location.pathname + window.location.search + window.location.hash;
      // As the browser does: following a link to where one is already replaces the entry.
      navigate(path, { replace: path === here });
    };
    document.addEventListener('click', follow);
    return () => document.removeEventListener('click', follow);
  }, [shows]);
}
