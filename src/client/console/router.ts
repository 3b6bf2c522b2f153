import { type MouseEvent, useSyncExternalStore } from 'react';

/**
 * The console's few pages need no router library: the address is the state, links push to the
 * history, and the back button works. Paths: /console (inbox, its filters in the query),
 * /console/messages/:id, /console/chat, /console/analytics (its range in the query), /console/staff.
 */
export type ConsoleRoute =
  | { page: 'inbox'; query: URLSearchParams }
  | { page: 'message'; id: string }
  | { page: 'chat' }
  | { page: 'analytics'; query: URLSearchParams }
  | { page: 'staff' }
  | { page: 'missing' };

export const CONSOLE_PATHS = {
  inbox: '/console',
  message: (id: string) => `/console/messages/${encodeURIComponent(id)}`,
  chat: '/console/chat',
  analytics: '/console/analytics',
  staff: '/console/staff',
} as const;

export function parseRoute(pathname: string, search: string): ConsoleRoute {
  const path = pathname.replace(/\/+$/, '') || '/';
  const query = new URLSearchParams(search);
  if (path === CONSOLE_PATHS.inbox) return { page: 'inbox', query };
  if (path === CONSOLE_PATHS.analytics) return { page: 'analytics', query };
  if (path === CONSOLE_PATHS.chat) return { page: 'chat' };
  if (path === CONSOLE_PATHS.staff) return { page: 'staff' };
  const message = /^\/console\/messages\/([^/]+)$/.exec(path);
  if (message?.[1]) return { page: 'message', id: decodeURIComponent(message[1]) };
  return { page: 'missing' };
}

const CHANGE = 'console:navigate';

const subscribe = (onChange: () => void) => {
  window.addEventListener('popstate', onChange);
  window.addEventListener(CHANGE, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(CHANGE, onChange);
  };
};
const snapshot = () => window.location.pathname + window.location.search;

/** The current page, following the address. */
export function useRoute(): ConsoleRoute {
  const location = useSyncExternalStore(subscribe, snapshot, snapshot);
  const at = location.indexOf('?');
  return parseRoute(at < 0 ? location : location.slice(0, at), at < 0 ? '' : location.slice(at));
}

/** Goes to a console address, as a link would; `replace` for a change that is no new step back. */
export function navigate(to: string, { replace = false } = {}) {
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(CHANGE));
}

/** A link's click stays in the app, unless the visitor asked for a new tab or window. */
export function followLink(event: MouseEvent<HTMLAnchorElement>) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(event.currentTarget.getAttribute('href') ?? CONSOLE_PATHS.inbox);
}
