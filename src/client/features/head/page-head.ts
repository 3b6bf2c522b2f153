import type { i18n } from 'i18next';
import { type HeadLink, headLinks, isIndexed } from '#common/head.ts';
import { type Direction, directionOf } from '#common/languages.ts';
import { PAGES, type PageId, pageMetaKey } from '#common/routes.ts';

export interface PageHead {
  language: string;
  dir: Direction;
  title: string;
  description: string;
  /** False for the pages search engines are asked to leave out (`<meta name="robots" content="noindex">`). */
  indexed: boolean;
  links: HeadLink[];
}

/** Everything a page declares in its <head>: the prerender writes it, the browser keeps it in step. */
export function pageHead(
  i18n: i18n,
  page: PageId,
  language: string,
  siteUrl: string,
  location: { pathname: string; search?: string; hash?: string },
): PageHead {
  const t = i18n.getFixedT(language, PAGES[page].ns);
  const meta = pageMetaKey(page) as 'meta';
  return {
    language,
    dir: directionOf(language),
    title: t(`${meta}.title`),
    description: t(`${meta}.description`),
    indexed: isIndexed(page),
    links: headLinks(siteUrl, location),
  };
}
