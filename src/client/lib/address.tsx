import { createContext, type MouseEvent, type ReactNode, startTransition, use, useEffect, useState } from 'react';
import { DEFAULT_LANGUAGE, type Language } from '#common/languages.ts';
import { matchPage } from '#common/routes.ts';

/**
 * Neither the site nor the console needs a router library: the page table (`matchPage`,
 * `matchConsolePage`) says which page an address is, and this module keeps the address in React
 * state and moves it with the browser's history (decision 090).
 */
export interface Address {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation that led here carried (an email address passed on to the next form). */
  state: unknown;
  /** How the visitor got here: 'pop' for the first load and for back and forward. */
  type: 'pop' | 'push' | 'replace';
  /** Differs between navigations, even to the same address; back and forward restore it. */
  key: string;
}

/** What a navigation stores in the history entry, so that back and forward give it back. */
interface Entry {
  key: string;
  state: unknown;
}

const NAVIGATE = 'site:navigate';

/** The key of an address no navigation of the app led to: the page as loaded, and the prerender. */
const FIRST_KEY = 'default';

const AddressContext = createContext<Address | null>(null);

/** The browser's address now, and how the visitor got there. */
export function readAddress(type: Address['type']): Address {
  const { pathname, search, hash } = window.location;
  const entry = window.history.state as Partial<Entry> | null;
  return { pathname, search, hash, state: entry?.state ?? null, type, key: entry?.key ?? FIRST_KEY };
}

/**
 * Goes to an address within the site, as following a link would; `replace` for a step that is no new
 * entry in the history. The page changes in a transition: the one on screen stays until the next
 * one's code and texts are there.
 */
export function navigate(to: string, { replace = false, state = null }: { replace?: boolean; state?: unknown } = {}) {
  const entry: Entry = { key: Math.random().toString(36).slice(2, 10), state };
  if (replace) window.history.replaceState(entry, '', to);
  else window.history.pushState(entry, '', to);
  window.dispatchEvent(new CustomEvent<Address['type']>(NAVIGATE, { detail: replace ? 'replace' : 'push' }));
}

/**
 * Calls `onChange` with the new address after every navigation and every step back or forward;
 * returns the function that stops it.
 */
export function followAddress(onChange: (address: Address) => void): () => void {
  const onPop = () => onChange(readAddress('pop'));
  const onNavigate = (event: Event) => onChange(readAddress((event as CustomEvent<Address['type']>).detail));
  window.addEventListener('popstate', onPop);
  window.addEventListener(NAVIGATE, onNavigate);
  return () => {
    window.removeEventListener('popstate', onPop);
    window.removeEventListener(NAVIGATE, onNavigate);
  };
}

/** The browser's address, followed through navigations and back and forward. */
export function BrowserAddress({ children }: { children: ReactNode }) {
  const [address, setAddress] = useState(() => readAddress('pop'));
  useEffect(() => followAddress((next) => startTransition(() => setAddress(next))), []);
  return <AddressContext value={address}>{children}</AddressContext>;
}

/** A fixed address, for rendering a page at build time. */
export function StaticAddress({ path, children }: { path: string; children: ReactNode }) {
  return (
    <AddressContext value={{ pathname: path, search: '', hash: '', state: null, type: 'pop', key: FIRST_KEY }}>
      {children}
    </AddressContext>
  );
}

/** The address being rendered; null where nothing follows one (a component rendered on its own). */
export function useOptionalAddress(): Address | null {
  return use(AddressContext);
}

/** Whether a site's page is rendered, whose app follows its links itself; false in the console. */
export function useInSitePage(): boolean {
  const address = useOptionalAddress();
  return address !== null && matchPage(address.pathname) !== null;
}

export function useAddress(): Address {
  const address = useOptionalAddress();
  if (!address) throw new Error('useAddress needs BrowserAddress or StaticAddress above it');
  return address;
}

/** The language of the page being rendered. Pages only render at addresses the page table knows. */
export function useLanguage(): Language {
  return matchPage(useAddress().pathname)?.language ?? DEFAULT_LANGUAGE;
}

/** A click the app may follow itself: the main button, no modifier (a new tab, a download), not handled yet. */
export function isPlainClick(
  event: Pick<MouseEvent, 'button' | 'metaKey' | 'ctrlKey' | 'shiftKey' | 'altKey' | 'defaultPrevented'>,
) {
  return (
    !event.defaultPrevented && event.button === 0 && !(event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
  );
}

/** A link that carries navigation state to the next page; anything else is a plain `<a href>`. */
export function StateLink({
  to,
  state,
  className,
  children,
}: {
  to: string;
  state: unknown;
  className?: string;
  children: ReactNode;
}) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    navigate(to, { state });
  };
  return (
    <a className={className} href={to} onClick={follow}>
      {children}
    </a>
  );
}
