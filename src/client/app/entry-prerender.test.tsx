import { describe, expect, it } from 'vitest';
import type { Language } from '#common/languages.ts';
import { loadSiteConfig, readTexts } from '#server/platform/site-config.ts';
import { renderDocument } from './entry-prerender.tsx';

const assets = { styles: [{ css: 'body{}' }], entry: '/assets/entry.js', preloads: ['/assets/chunk.js'] };

const site = await loadSiteConfig();
const texts = await readTexts(site.brand);
const thaiAbout = texts.th?.about as { title: string; meta: { title: string } };

describe('renderDocument', () => {
  it('writes a whole page with its text, head links and only the namespaces it needs', async () => {
    const html = await renderDocument({
      path: '/th/about',
      page: 'about',
      language: 'th',
      resources: texts,
      site,
      assets,
    });
    expect(html).toMatch(/^<!doctype html>\n<html lang="th" dir="ltr">/);
    expect(html).toContain(`<title>${thaiAbout.meta.title}</title>`);
    expect(html).toContain(`<h1>${thaiAbout.title}</h1>`);
    expect(html).toContain(`<link rel="canonical" href="${site.siteUrl}/th/about">`);
    expect(html).toContain(`<link rel="alternate" hreflang="x-default" href="${site.siteUrl}/en/about">`);
    expect(html).toContain('data-modules="/assets/entry.js /assets/chunk.js" data-path="/th/about"');
    expect(html).not.toContain('<script type="module"');
    const boot = JSON.parse(
      html.match(/<script type="application\/json" id="boot-data"[^>]*>(.*?)<\/script>/s)?.[1] ?? '{}',
    );
    expect(boot.language).toBe('th');
    expect(Object.keys(boot.resources.th).sort()).toEqual(['about', 'common', 'legal']);
    expect(html).not.toContain('{{siteName}}');
  });

  it('inlines the critical sheet, then the page’s own, each beside a disabled link to its built file', async () => {
    const html = await renderDocument({
      path: '/en/contact',
      page: 'contact',
      language: 'en',
      resources: texts,
      site,
      assets: {
        ...assets,
        styles: [
          { css: 'body{}', href: '/assets/entry.css' },
          { css: '.own{}', href: '/assets/own.css' },
        ],
      },
    });
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(
      '<style>body{}</style>\n<link rel="stylesheet" href="/assets/entry.css" disabled>\n' +
        '<style>.own{}</style>\n<link rel="stylesheet" href="/assets/own.css" disabled>',
    );
    // And no other stylesheet link.
    expect(head.match(/<link rel="stylesheet"/g)).toHaveLength(2);
  });

  it('carries what Intl formatted for the page, and only for that page', async () => {
    const bootOf = (html: string) =>
      JSON.parse(html.match(/<script type="application\/json" id="boot-data"[^>]*>(.*?)<\/script>/s)?.[1] ?? '{}');
    const privacy = bootOf(
      await renderDocument({
        path: '/de/privacy-policy',
        page: 'privacy',
        language: 'de',
        resources: texts,
        site,
        assets,
      }),
    );
    expect(privacy.formatted).toMatchObject({ 'year de 1': '1 Jahr', 'year de 2': '2 Jahre' });
    for (const text of Object.values(privacy.formatted)) expect(typeof text).toBe('string');
    const about = bootOf(
      await renderDocument({ path: '/de/about', page: 'about', language: 'de', resources: texts, site, assets }),
    );
    expect(about.formatted).toEqual({});
  });

  it('shows the privacy policy whole but leaves the texts its first paint does not use out of the boot data', async () => {
    const html = await renderDocument({
      path: '/th/privacy-policy',
      page: 'privacy',
      language: 'th',
      resources: texts,
      site,
      assets,
    });
    const boot = JSON.parse(
      html.match(/<script type="application\/json" id="boot-data"[^>]*>(.*?)<\/script>/s)?.[1] ?? '{}',
    );
    expect(Object.keys(boot.resources.th).sort()).toEqual(['common']);
    const privacy = texts.th?.privacy as { title: string; sections: { controller: { title: string } } };
    expect(html).toContain(`<h1>${privacy.title}</h1>`);
    expect(html).toContain(privacy.sections.controller.title);
  });

  it('asks search engines to leave out a page the table marks so, and only that', async () => {
    const render = (page: 'validation' | 'account' | 'about', path: string) =>
      renderDocument({ path, page, language: 'de', resources: texts, site, assets });
    expect(await render('validation', '/de/validation')).toContain('<meta name="robots" content="noindex">');
    expect(await render('account', '/de/account')).toContain('<meta name="robots" content="noindex">');
    expect(await render('about', '/de/about')).not.toContain('name="robots"');
  });

  it('writes a right-to-left language right to left (a language added only here)', async () => {
    const arabic = { ar: texts.en } as typeof texts;
    const html = await renderDocument({
      path: '/ar/terms',
      page: 'terms',
      language: 'ar' as Language,
      resources: arabic,
      site,
      assets,
      languages: ['en', 'ar'],
    });
    expect(html).toMatch(/<html lang="ar" dir="rtl">/);
  });

  it('cannot be broken out of by a text that closes the script element', async () => {
    const hostile = structuredClone(texts);
    (hostile.en?.home?.hero as Record<string, string>).title = '</script><script>alert(1)</script>';
    const html = await renderDocument({ path: '/en', page: 'home', language: 'en', resources: hostile, site, assets });
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
