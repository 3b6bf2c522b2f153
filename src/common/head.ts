import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from './languages.ts';
import { allPagePaths, PAGES, type PageId } from './routes.ts';

export interface HeadLink {
  rel: 'canonical' | 'alternate';
  href: string;
  hreflang?: string;
}

/**
 * The site's icon, on every document. A PNG rather than an SVG: Chrome decodes the icon on the
 * page's main thread, and an SVG icon needs a document of its own there (4 to 12 ms around the
 * first paint, decision 085), a small PNG well under a millisecond.
 */
export const FAVICON_LINK = '<link rel="icon" href="/favicon.png" type="image/png">';

/** Whether search engines may list the page: a page the table marks `index: false` carries noindex. */
export const isIndexed = (page: PageId): boolean => (PAGES[page] as { index?: false }).index !== false;

/** Every page in every language that the sitemap lists: the indexed ones. */
export const sitemapPaths = (languages?: readonly Language[]) =>
  allPagePaths(languages).filter(({ page }) => isIndexed(page));

/** Splits `/it/about` into its language (when supported) and the rest of the path. */
function splitLanguage(pathname: string): { language: Language | null; rest: string } {
  const [, first = '', ...rest] = pathname.split('/');
  return isLanguage(first)
    ? { language: first, rest: rest.length ? `/${rest.join('/')}` : '' }
    : { language: null, rest: pathname === '/' ? '' : pathname };
}

/**
 * The canonical link (current language, or en when the path has none; no query or hash) and one
 * alternate per language plus x-default pointing at en (each keeping path, query and hash).
 */
export function headLinks(siteUrl: string, location: { pathname: string; search?: string; hash?: string }): HeadLink[] {
  const origin = siteUrl.replace(/\/+$/, '');
  const { language, rest } = splitLanguage(location.pathname);
  const tail = rest + (location.search ?? '') + (location.hash ?? '');
  return [
    { rel: 'canonical', href: `${origin}/${language ?? DEFAULT_LANGUAGE}${rest}` },
    ...LANGUAGES.map((lang) => ({ rel: 'alternate' as const, hreflang: lang, href: `${origin}/${lang}${tail}` })),
    { rel: 'alternate', hreflang: 'x-default', href: `${origin}/${DEFAULT_LANGUAGE}${tail}` },
  ];
}
