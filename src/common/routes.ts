import {
  DEFAULT_LANGUAGE,
  DEFAULT_NAMESPACE,
  isLanguage,
  LANGUAGES,
  type Language,
  type Namespace,
} from './languages.ts';

interface PageEntry {
  path: string;
  /**
   * The page's component, under src/client/pages/ without `.tsx`; each is a chunk of its own. The
   * stylesheets it imports, itself or through its imports, are the page's first-paint sheets: the
   * build inlines them into this page alone, after the critical sheet (README, "Styles").
   */
  module: string;
  ns: Namespace;
  layout: boolean;
  /** Where the shared layout links to the page: the header's main navigation or the footer's legal list. */
  nav?: 'header' | 'footer';
  /** Where in `ns` the page's title and description are, when several pages share a namespace. */
  meta?: string;
  /** Further namespaces the page needs from its first render (forms need the error messages). */
  alsoNs?: readonly Namespace[];
  /** `false`: a step of a visitor's own journey, not worth a search result (noindex, not in the sitemap). */
  index?: false;
  /**
   * Namespaces of the page whose texts its HTML shows but does not carry a second time for the app,
   * which fetches them after the first paint: long texts (the privacy policy's), or texts only the
   * app draws (the account's, shown once the account has loaded). The page then fits the first
   * round trip of a new connection (decision 085).
   */
  textsAfterPaint?: readonly Namespace[];
  /**
   * `true`: only a signed-in visitor has anything to see here. A request that carries no sign of a
   * session (the signed-in cookie) is answered with the sign-in page at this address (decision 092).
   */
  signedIn?: true;
}

/**
 * Every page of the site: the path after the language prefix, its module, the namespace that holds
 * its texts, whether it sits in the shared layout and where the layout links to it. Server
 * redirects, prerendering, the sitemap, the client's pages and navigation and the tests all read
 * this one table (the console's pages are in `CONSOLE_PAGES` below). Forgotten password and account share the sign-in
 * namespace (see docs/decisions); the imprint's texts and the company's details that the legal
 * pages, contact and about share are in `legal`.
 */
export const PAGES = {
  home: { path: '', module: 'home/HomePage', ns: 'home', layout: true, nav: 'header' },
  about: { path: 'about', module: 'about/AboutPage', ns: 'about', layout: true, alsoNs: ['legal'], nav: 'header' },
  contact: {
    path: 'contact',
    module: 'contact/ContactPage',
    ns: 'contact',
    layout: true,
    alsoNs: ['legal', 'errors'],
    nav: 'header',
  },
  contactSent: {
    path: 'contact/sent',
    module: 'contact/ContactSentPage',
    ns: 'contact',
    meta: 'sent.meta',
    layout: true,
    index: false,
  },
  privacy: {
    path: 'privacy-policy',
    module: 'legal/PrivacyPage',
    ns: 'privacy',
    layout: true,
    alsoNs: ['legal'],
    textsAfterPaint: ['privacy', 'legal'],
    nav: 'footer',
  },
  terms: { path: 'terms', module: 'legal/TermsPage', ns: 'terms', layout: true, alsoNs: ['legal'], nav: 'footer' },
  cookies: {
    path: 'cookie-policy',
    module: 'legal/CookiePage',
    ns: 'cookie',
    layout: true,
    alsoNs: ['legal'],
    nav: 'footer',
  },
  imprint: {
    path: 'imprint',
    module: 'legal/ImprintPage',
    ns: 'legal',
    meta: 'imprint.meta',
    layout: true,
    nav: 'footer',
  },
  login: { path: 'login', module: 'login/LoginPage', ns: 'login', layout: false, alsoNs: ['errors'] },
  register: { path: 'register', module: 'register/RegisterPage', ns: 'register', layout: false, alsoNs: ['errors'] },
  validation: {
    path: 'validation',
    module: 'validation/ValidationPage',
    ns: 'validation',
    layout: false,
    alsoNs: ['errors'],
    index: false,
  },
  forgotPassword: {
    path: 'forgot-password',
    module: 'forgot-password/ForgotPasswordPage',
    ns: 'login',
    meta: 'forgot.meta',
    layout: false,
    alsoNs: ['errors'],
    index: false,
  },
  /**
   * The forgotten password's second step as a page of its own: the app shows it in place on the
   * first one, a browser without JavaScript is sent here once the code is mailed (decision 125).
   */
  resetPassword: {
    path: 'forgot-password/code',
    module: 'forgot-password/ResetPasswordPage',
    ns: 'login',
    meta: 'forgot.meta',
    layout: false,
    alsoNs: ['errors'],
    index: false,
  },
  account: {
    path: 'account',
    module: 'account/AccountPage',
    ns: 'login',
    meta: 'account.meta',
    layout: true,
    alsoNs: ['errors', 'settings'],
    textsAfterPaint: ['login', 'errors', 'settings'],
    index: false,
    signedIn: true,
  },
  /** Opened from the mail to the old address after a change of email address: puts that address back. */
  emailUndo: {
    path: 'account/undo-email-change',
    module: 'email-undo/EmailUndoPage',
    ns: 'settings',
    meta: 'undo.meta',
    layout: false,
    alsoNs: ['errors'],
    index: false,
  },
} as const satisfies Record<string, PageEntry>;

export type PageId = keyof typeof PAGES;
export const PAGE_IDS = Object.keys(PAGES) as PageId[];

type NavPlace = NonNullable<PageEntry['nav']>;
/** The pages whose `nav` is `P`, as a type: their ids name their link texts. */
export type NavPage<P extends NavPlace> = {
  [K in PageId]: (typeof PAGES)[K] extends { nav: P } ? K : never;
}[PageId];

/** The pages the shared layout links to from `place`, in the table's order. */
export const navPages = <P extends NavPlace>(place: P) =>
  PAGE_IDS.filter((id) => (PAGES[id] as PageEntry).nav === place) as NavPage<P>[];

/** The cookie policy's section where the visitor sees and changes the analytics choice. */
export const PRIVACY_SETTINGS_ID = 'your-choice';
/** Every namespace a page shows texts from: the common one, its own and those it also needs. */
export function pageNamespaces(page: PageId): Namespace[] {
  const entry: PageEntry = PAGES[page];
  return [DEFAULT_NAMESPACE, entry.ns, ...(entry.alsoNs ?? [])];
}

/** The namespaces a prerendered page hands the app with its HTML: all it shows, but those that come after the paint. */
export function bootNamespaces(page: PageId): Namespace[] {
  const entry: PageEntry = PAGES[page];
  return pageNamespaces(page).filter((ns) => !entry.textsAfterPaint?.includes(ns));
}

/** The key prefix of a page's title and description in its namespace. */
export const pageMetaKey = (page: PageId): string => (PAGES[page] as PageEntry).meta ?? 'meta';

export const needsSession = (page: PageId): boolean => (PAGES[page] as PageEntry).signedIn === true;

/** The page that answers a request for `page` without a sign of a session: sign-in, where one is needed. */
export const signedOutPage = (page: PageId): PageId => (needsSession(page) ? 'login' : page);

/** Longest path and query string worth reading; anything longer goes to the home page. */
const MAX_PATH_LENGTH = 1024;
const MAX_QUERY_LENGTH = 1024;

export function pagePath(language: Language, page: PageId): string {
  const rest = PAGES[page].path;
  return rest ? `/${language}/${rest}` : `/${language}`;
}

export function privacySettingsPath(language: Language): string {
  return `${pagePath(language, 'cookies')}#${PRIVACY_SETTINGS_ID}`;
}

/** The page a path names, or null. Only exact paths match: no trailing slash, no case folding. */
export function matchPage(pathname: string): { language: Language; page: PageId } | null {
  const [, language, ...rest] = pathname.split('/');
  if (!isLanguage(language) || pathname.endsWith('/')) return null;
  const path = rest.join('/');
  const page = PAGE_IDS.find((id) => PAGES[id].path === path);
  return page ? { language, page } : null;
}

export type Resolution =
  | { kind: 'root' }
  | { kind: 'page'; language: Language; page: PageId }
  | { kind: 'redirect'; location: string };

/**
 * What a request path leads to, by the rules of the specification: `/` is for the browser to
 * decide; a supported language prefix with a known page is that page; an unsupported first segment
 * keeps the path under /en; everything else goes to /en. Redirects only ever point at paths built
 * from the page table, so nothing of the request is reflected but a bounded query string.
 */
export function resolvePath(pathname: string, search = ''): Resolution {
  if (pathname === '/') return { kind: 'root' };
  const home = pagePath(DEFAULT_LANGUAGE, 'home');
  if (pathname.length > MAX_PATH_LENGTH) return { kind: 'redirect', location: home };
  const query = search.length <= MAX_QUERY_LENGTH ? search : '';

  const direct = matchPage(pathname);
  if (direct) return { kind: 'page', ...direct };

  const trimmed = pathname.replace(/\/+$/, '');
  const withoutSlash = trimmed !== pathname ? matchPage(trimmed) : null;
  if (withoutSlash) return { kind: 'redirect', location: pagePath(withoutSlash.language, withoutSlash.page) + query };

  const [, first] = pathname.split('/');
  if (!isLanguage(first)) {
    const prefixed = matchPage(`/${DEFAULT_LANGUAGE}${trimmed}`);
    if (prefixed) return { kind: 'redirect', location: pagePath(prefixed.language, prefixed.page) + query };
  }
  return { kind: 'redirect', location: home };
}

/** Every page in every language: what the build prerenders and the sitemap lists. */
export function allPagePaths(languages: readonly Language[] = LANGUAGES) {
  return languages.flatMap((language) => PAGE_IDS.map((page) => ({ language, page, path: pagePath(language, page) })));
}

/** The same address in another language: the language prefix is replaced, or added when missing. */
export function switchLanguagePath(
  location: { pathname: string; search?: string; hash?: string },
  language: Language,
): string {
  const segments = location.pathname.split('/').filter(Boolean);
  if (isLanguage(segments[0])) segments.shift();
  return `/${[language, ...segments].join('/')}${location.search ?? ''}${location.hash ?? ''}`;
}

/** The operator console: one page at this address serves every console path; the app reads the rest. */
export const CONSOLE_ROOT = '/console';

/** The console's pages, by the path after `CONSOLE_ROOT`; `:id` stands for a message's id or a namespace. */
export const CONSOLE_PAGES = {
  inbox: { path: '' },
  message: { path: 'messages/:id' },
  chat: { path: 'chat' },
  analytics: { path: 'analytics' },
  staff: { path: 'staff' },
  chatSettings: { path: 'chat-settings' },
  search: { path: 'search' },
  savedReplies: { path: 'saved-replies' },
  texts: { path: 'texts' },
  // Before the namespace's page, whose `:id` would take "publish" too.
  textsPublish: { path: 'texts/publish' },
  /** One namespace's texts; `:id` is the namespace. */
  textsNamespace: { path: 'texts/:id' },
  pictures: { path: 'pictures' },
  brand: { path: 'brand' },
} as const satisfies Record<string, { path: string }>;

export type ConsolePageId = keyof typeof CONSOLE_PAGES;

/** Whether a path belongs to the console (the server answers it with the console's page). */
export const isConsolePath = (pathname: string): boolean =>
  pathname === CONSOLE_ROOT || pathname.startsWith(`${CONSOLE_ROOT}/`);

/** A console page's address, with its `:id` filled in and a query string when one is given. */
export function consolePath(page: ConsolePageId, { id, query }: { id?: string; query?: string } = {}): string {
  const rest = CONSOLE_PAGES[page].path.replace(':id', encodeURIComponent(id ?? ''));
  return `${CONSOLE_ROOT}${rest ? `/${rest}` : ''}${query ?? ''}`;
}

/** The console page a path names (a trailing slash allowed), with the message's id; null for none. */
export function matchConsolePage(pathname: string): { page: ConsolePageId; id?: string } | null {
  if (!isConsolePath(pathname)) return null;
  const rest = pathname.slice(CONSOLE_ROOT.length).replace(/^\/+|\/+$/g, '');
  for (const page of Object.keys(CONSOLE_PAGES) as ConsolePageId[]) {
    const pattern = CONSOLE_PAGES[page].path;
    if (!pattern.includes(':id')) {
      if (pattern === rest) return { page };
      continue;
    }
    const [before, after] = pattern.split(':id') as [string, string];
    const id =
      rest.startsWith(before) && rest.endsWith(after) ? rest.slice(before.length, rest.length - after.length) : '';
    if (id && !id.includes('/')) {
      try {
        return { page, id: decodeURIComponent(id) };
      } catch {
        return null;
      }
    }
  }
  return null;
}
