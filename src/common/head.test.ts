import { describe, expect, it } from 'vitest';
import { headLinks, isIndexed, sitemapPaths } from './head.ts';
import { allPagePaths } from './routes.ts';

const SITE = 'https://example.com';

describe('indexing', () => {
  it('asks search engines to leave out the steps of a visitor’s own journey', () => {
    expect(['validation', 'forgotPassword', 'account'].filter((page) => isIndexed(page as never))).toEqual([]);
    for (const page of ['home', 'about', 'contact', 'privacy', 'terms', 'cookies', 'login', 'register'] as const) {
      expect(isIndexed(page)).toBe(true);
    }
  });

  it('lists only the indexed pages in the sitemap, in every language', () => {
    const listed = sitemapPaths().map(({ path }) => path);
    expect(listed).toContain('/th/about');
    expect(listed).not.toContain('/th/validation');
    expect(listed).not.toContain('/en/forgot-password');
    expect(listed).not.toContain('/nl/account');
    expect(listed).toHaveLength(allPagePaths().filter(({ page }) => isIndexed(page)).length);
  });
});

describe('headLinks', () => {
  it('declares one canonical without query or hash, and alternates that keep them', () => {
    const links = headLinks(SITE, { pathname: '/it/about', search: '?ref=x', hash: '#story' });
    expect(links.filter((link) => link.rel === 'canonical')).toEqual([{ rel: 'canonical', href: `${SITE}/it/about` }]);
    expect(links.filter((link) => link.rel === 'alternate')).toEqual([
      { rel: 'alternate', hreflang: 'en', href: `${SITE}/en/about?ref=x#story` },
      { rel: 'alternate', hreflang: 'it', href: `${SITE}/it/about?ref=x#story` },
      { rel: 'alternate', hreflang: 'th', href: `${SITE}/th/about?ref=x#story` },
      { rel: 'alternate', hreflang: 'fr', href: `${SITE}/fr/about?ref=x#story` },
      { rel: 'alternate', hreflang: 'de', href: `${SITE}/de/about?ref=x#story` },
      { rel: 'alternate', hreflang: 'nl', href: `${SITE}/nl/about?ref=x#story` },
      { rel: 'alternate', hreflang: 'x-default', href: `${SITE}/en/about?ref=x#story` },
    ]);
  });

  it('uses en for the canonical when the path has no supported language', () => {
    expect(headLinks(SITE, { pathname: '/about' })[0]).toEqual({ rel: 'canonical', href: `${SITE}/en/about` });
    expect(headLinks(SITE, { pathname: '/' })[0]).toEqual({ rel: 'canonical', href: `${SITE}/en` });
    expect(headLinks(`${SITE}/`, { pathname: '/es/about' })[0]).toEqual({
      rel: 'canonical',
      href: `${SITE}/en/es/about`,
    });
  });

  it('points the home page of each language at itself', () => {
    expect(headLinks(SITE, { pathname: '/th' })[0]).toEqual({ rel: 'canonical', href: `${SITE}/th` });
  });
});
