// Every page in every language as the prerender writes it, with its share image rendered for real:
// the Open Graph and Twitter tags a preview reads, the image files they name, and the JSON-LD.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderDocument } from '#client/app/entry-prerender.tsx';
import { ogLocale } from '#client/features/head/index.ts';
import { isIndexed } from '#common/head.ts';
import { LANGUAGES } from '#common/languages.ts';
import { allPagePaths, pagePath } from '#common/routes.ts';
import { loadSiteConfig, ROOT, readTexts } from '#server/platform/site-config.ts';
import {
  brandColours,
  SHARE_IMAGE_HEIGHT,
  SHARE_IMAGE_WIDTH,
  shareImageWriter,
  textWidth,
  thaiSaraAmDecomposed,
  wrapTitle,
} from '#server/site/share-image.ts';

const site = await loadSiteConfig();
const texts = await readTexts(site.brand);
const cacheRoot = await mkdtemp(path.join(tmpdir(), 'share-tags-'));
afterAll(() => rm(cacheRoot, { recursive: true, force: true }));
/** The images as the writer hands them over, by their path. */
const images = new Map<string, Uint8Array>();
const shareImage = shareImageWriter({
  save: (urlPath, png) => {
    images.set(urlPath, png);
  },
  // A cache of its own, so that every run renders the images.
  cacheDir: cacheRoot,
  colours: brandColours(await readFile(path.join(ROOT, 'src/client/styles/tokens.css'), 'utf8')),
});
const assets = { styles: [{ css: 'body{}' }], entry: '/assets/entry.js', preloads: [] };

const unescapeHtml = (text: string) =>
  text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/** The head's tags, read as a crawler reads them: each property's values in order. */
function readHead(html: string) {
  const head = html.slice(0, html.indexOf('</head>'));
  const meta = new Map<string, string[]>();
  for (const [, key = '', content = ''] of head.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g))
    meta.set(key, [...(meta.get(key) ?? []), unescapeHtml(content)]);
  const jsonLd = [...head.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(
    ([, json = '']) => JSON.parse(json) as Record<string, unknown>,
  );
  return {
    one: (key: string) => {
      expect(meta.get(key), key).toHaveLength(1);
      return meta.get(key)?.[0];
    },
    all: (key: string) => meta.get(key) ?? [],
    title: unescapeHtml(head.match(/<title>(.*?)<\/title>/)?.[1] ?? ''),
    canonical: head.match(/<link rel="canonical" href="([^"]+)">/)?.[1],
    jsonLd,
  };
}

/** Width and height from a PNG's header chunk. */
function pngSize(png: Uint8Array | undefined) {
  expect(png).toBeDefined();
  const data = Buffer.from(png ?? []);
  expect(data.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

const rendered = await Promise.all(
  allPagePaths().map(async ({ language, page, path: pathname }) => ({
    language,
    page,
    pathname,
    html: await renderDocument({ path: pathname, page, language, resources: texts, site, assets, shareImage }),
  })),
);

describe('the prerendered pages’ sharing tags', () => {
  it.each(rendered)('$pathname: Open Graph and Twitter card tags', async ({ language, page, html }) => {
    const head = readHead(html);
    expect(head.one('og:type')).toBe('website');
    expect(head.one('og:site_name')).toBe(site.brand.siteName);
    expect(head.one('og:title')).toBe(head.title);
    expect(head.one('og:description')).toBe(
      unescapeHtml(html.match(/<meta name="description" content="([^"]*)">/)?.[1] ?? ''),
    );
    expect(head.one('og:url')).toBe(head.canonical);
    expect(head.one('og:locale')).toBe(ogLocale(language));
    expect(head.all('og:locale:alternate').sort()).toEqual(
      LANGUAGES.filter((other) => other !== language)
        .map(ogLocale)
        .sort(),
    );
    if (!isIndexed(page)) {
      expect(head.all('og:image')).toEqual([]);
      expect(head.one('twitter:card')).toBe('summary');
      return;
    }
    expect(head.one('twitter:card')).toBe('summary_large_image');
    const image = head.one('og:image') ?? '';
    expect(image).toMatch(new RegExp(`^${site.siteUrl}/assets/share/[\\w-]+\\.png$`));
    expect(head.one('og:image:alt')).toBe(head.title);
    const size = pngSize(images.get(image.slice(site.siteUrl.length)));
    expect(size).toEqual({ width: SHARE_IMAGE_WIDTH, height: SHARE_IMAGE_HEIGHT });
    expect(Number(head.one('og:image:width'))).toBe(size.width);
    expect(Number(head.one('og:image:height'))).toBe(size.height);
  });

  it.each(rendered)('$pathname: JSON-LD', ({ language, page, html }) => {
    const { jsonLd, canonical } = readHead(html);
    if (!isIndexed(page)) {
      expect(jsonLd).toEqual([]);
      return;
    }
    expect(jsonLd).toHaveLength(1);
    const [data] = jsonLd;
    expect(data?.['@context']).toBe('https://schema.org');
    const home = `${site.siteUrl}${pagePath(language, 'home')}`;
    if (page === 'home') {
      const graph = data?.['@graph'] as Record<string, unknown>[];
      expect(graph.map((node) => node['@type'])).toEqual(['Organization', 'WebSite']);
      const [organization, webSite] = graph;
      expect(organization).toMatchObject({ name: site.brand.siteName, url: `${site.siteUrl}/` });
      expect(webSite).toMatchObject({
        name: site.brand.siteName,
        url: home,
        inLanguage: language,
        publisher: { '@id': organization?.['@id'] },
      });
      return;
    }
    // The way from the home page, named as the navigation and the page's own heading name it.
    const homeName = (texts[language]?.common as { nav?: { home?: string } } | undefined)?.nav?.home;
    const heading = html.match(/<h1[^>]*>(.*?)<\/h1>/s)?.[1]?.replace(/<[^>]+>/g, '');
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        {
          '@type': 'ListItem',
          position: 1,
          name: homeName,
          item: home,
        },
        { '@type': 'ListItem', position: 2, name: unescapeHtml(heading ?? ''), item: canonical },
      ],
    });
  });

  it('gives each language its own image, and the same card the same file', () => {
    const imageOf = (pathname: string) =>
      readHead(rendered.find((entry) => entry.pathname === pathname)?.html ?? '').one('og:image');
    const homes = LANGUAGES.map((language) => imageOf(pagePath(language, 'home')));
    expect(new Set(homes).size).toBe(LANGUAGES.length);
    expect(imageOf('/th/about')).not.toBe(imageOf('/th/contact'));
  });
});

describe('texts in the sharing tags', () => {
  it('cannot close the JSON-LD’s script element or a tag’s attribute', async () => {
    const hostile = structuredClone(texts);
    const about = hostile.de?.about as { title: string; meta: { title: string } };
    about.title = '</script><script>alert(1)</script>';
    about.meta.title = '"><script>alert(2)</script>';
    const html = await renderDocument({
      path: '/de/about',
      page: 'about',
      language: 'de',
      resources: hostile,
      site,
      assets,
    });
    expect(html).not.toContain('<script>alert(');
    const head = readHead(html);
    expect(head.one('og:title')).toBe(about.meta.title);
    const breadcrumb = head.jsonLd[0]?.itemListElement as { name: string }[];
    expect(breadcrumb[1]?.name).toBe(about.title);
  });
});

describe('the share image’s title', () => {
  it('breaks Thai between words, which it measures in the Thai font', () => {
    const title = 'นโยบายความเป็นส่วนตัวและข้อกำหนดการใช้งานของเว็บไซต์ | Your Company';
    const lines = wrapTitle(title, 'th', 72, 5) ?? [];
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('').replaceAll(' ', '')).toBe(title.replaceAll(' ', ''));
    const words = new Set([...new Intl.Segmenter('th', { granularity: 'word' }).segment(title)].map((s) => s.index));
    // Each line starts where a word does: no word is cut in two.
    let offset = 0;
    for (const line of lines) {
      offset = title.indexOf(line, offset);
      expect(words.has(offset), line).toBe(true);
    }
    // A short title stays on one line: a line breaks only where the next word would not fit.
    expect(wrapTitle('นโยบายความเป็นส่วนตัว', 'th', 72, 1)).toEqual(['นโยบายความเป็นส่วนตัว']);
  });

  it('gives Thai SARA AM its width, with a tone mark above NIKHAHIT', () => {
    // Drawn whole, ำ took no room and the second ท covered it.
    expect(textWidth('ทำทำ', 100)).toBeGreaterThan(1.9 * textWidth('ทำ', 100));
    expect(thaiSaraAmDecomposed('น้ำ')).toBe('น\u0E4D\u0E49\u0E32');
    expect(thaiSaraAmDecomposed('ทำ')).toBe('ท\u0E4D\u0E32');
  });

  it('says when a title needs more lines than it may take', () => {
    expect(wrapTitle('Datenschutzerklärung und Nutzungsbedingungen von Your Company GmbH', 'de', 72, 1)).toBeNull();
  });
});
