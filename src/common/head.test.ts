import { describe, expect, it } from 'vitest';
import { headLinks } from './head.ts';

const SITE = 'https://example.com';

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
