import type { i18n } from 'i18next';
import { LANGUAGE_COUNTRY, LANGUAGES, type Language } from '#common/languages.ts';
import { PAGES, type PageId, pageMetaKey, pagePath } from '#common/routes.ts';
import type { ShareCard, ShareImage } from '#common/share-card.ts';
import type { SiteConfig } from '#common/site-config.ts';
import type { PageHead } from './page-head.ts';

export type { ShareCard, ShareImage };

/** One `<meta>` of the preview: Open Graph names it by `property`, Twitter by `name`. */
export interface ShareMeta {
  attribute: 'property' | 'name';
  key: string;
  content: string;
}

/** What a link preview and a search engine read from the page, written by the prerender only. */
export interface ShareHead {
  meta: ShareMeta[];
  /** Schema.org data as one JSON-LD object, or null where the page has none. */
  jsonLd: Record<string, unknown> | null;
}

/** `th` → `th_TH`: Open Graph wants language and territory. */
export const ogLocale = (language: Language): string => `${language}_${LANGUAGE_COUNTRY[language]}`;

/**
 * The card of a page's share image: its title in its language on the brand. Null for a page kept
 * out of search results: such a page is a step of one visitor's own journey, rarely shared, and
 * its preview shows its title without a picture (decision 190).
 */
export function shareCard(head: PageHead, site: SiteConfig): ShareCard | null {
  if (!head.indexed) return null;
  return {
    language: head.language as Language,
    title: head.title,
    siteName: site.brand.siteName,
    domain: site.brand.domain,
  };
}

/** The page's own heading: the `title` beside its `meta` (`imprint.meta` → `imprint.title`). */
const headingKey = (page: PageId) => pageMetaKey(page).replace(/(^|\.)meta$/, '$1title');

/**
 * Schema.org data: the organisation and the web site on the home page, the way from the home page
 * on every other indexed page. Names are in the page's language; addresses are canonical.
 */
function structuredData(
  i18n: i18n,
  page: PageId,
  head: PageHead,
  site: SiteConfig,
  canonical: string,
): ShareHead['jsonLd'] {
  if (!head.indexed) return null;
  const language = head.language as Language;
  const origin = site.siteUrl.replace(/\/+$/, '');
  const home = `${origin}${pagePath(language, 'home')}`;
  if (page === 'home') {
    const organization = `${origin}/#organization`;
    const { legalName, email } = site.company;
    return {
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'Organization',
          '@id': organization,
          name: site.brand.siteName,
          url: `${origin}/`,
          ...(legalName ? { legalName } : {}),
          ...(email ? { email } : {}),
        },
        {
          '@type': 'WebSite',
          name: site.brand.siteName,
          url: home,
          inLanguage: language,
          publisher: { '@id': organization },
        },
      ],
    };
  }
  const t = i18n.getFixedT(language, PAGES[page].ns);
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: t('nav.home', { ns: 'common' }), item: home },
      { '@type': 'ListItem', position: 2, name: t(headingKey(page) as 'title'), item: canonical },
    ],
  };
}

/**
 * Open Graph and Twitter card tags and the JSON-LD of a page, from its head and its share image
 * (none for a page without a card, and in the development server, which renders no images).
 */
export function shareHead(
  i18n: i18n,
  page: PageId,
  head: PageHead,
  site: SiteConfig,
  image: ShareImage | null,
): ShareHead {
  const language = head.language as Language;
  const canonical = head.links.find((link) => link.rel === 'canonical')?.href ?? '';
  const og = (key: string, content: string): ShareMeta => ({ attribute: 'property', key: `og:${key}`, content });
  const origin = site.siteUrl.replace(/\/+$/, '');
  const meta = [
    og('type', 'website'),
    og('site_name', site.brand.siteName),
    og('title', head.title),
    og('description', head.description),
    og('url', canonical),
    og('locale', ogLocale(language)),
    ...LANGUAGES.filter((other) => other !== language).map((other) => og('locale:alternate', ogLocale(other))),
    ...(image
      ? [
          og('image', `${origin}${image.path}`),
          og('image:width', String(image.width)),
          og('image:height', String(image.height)),
          // The picture is the title set as text; its alternative is that text.
          og('image:alt', head.title),
        ]
      : []),
    { attribute: 'name', key: 'twitter:card', content: image ? 'summary_large_image' : 'summary' } as const,
  ];
  return { meta, jsonLd: structuredData(i18n, page, head, site, canonical) };
}
