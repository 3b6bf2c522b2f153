// Writes every page × language as HTML into dist/client, with the root page, sitemap.xml and
// robots.txt, then precompresses every text file. Runs after both Vite builds (`npm run build`).
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';
import { brandCss } from '#common/brand-palette.ts';
import { headLinks, sitemapPaths } from '#common/head.ts';
import { missingLegalFacts } from '#common/legal-facts.ts';
import { allPagePaths, CONSOLE_ROOT } from '#common/routes.ts';
import { configForPage, pageConfigs } from '#common/site-pictures.ts';
import { loadSiteConfig, ROOT, readTexts } from '#server/platform/site-config.ts';
import { consolePage } from '#server/site/console-page.ts';
import { listFiles } from '#server/site/list-files.ts';
import { loadPageRenderer } from '#server/site/page-renderer.ts';
import { brandColours, shareImageWriter } from '#server/site/share-image.ts';
import { rootPage } from './root-page.ts';

const CLIENT_DIR = path.join(ROOT, 'dist/client');

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

async function writeOut(relative: string, content: string | Uint8Array) {
  const file = path.join(CLIENT_DIR, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

async function precompress(files: string[]) {
  const brotli = promisify(brotliCompress);
  const compressible = files.filter((file) => /\.(html|js|css|json|svg|xml|txt)$/.test(file));
  await Promise.all(
    compressible.map(async (file) => {
      const full = path.join(CLIENT_DIR, file);
      const data = await readFile(full);
      const [br, gzipped] = await Promise.all([
        brotli(data, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
        }),
        // Zopfli writes standard gzip some 4% smaller than zlib's best, once, at build time.
        gzipAsync(data, { numiterations: 15 }),
      ]);
      await Promise.all([writeFile(`${full}.br`, br), writeFile(`${full}.gz`, gzipped)]);
    }),
  );
}

async function main() {
  const site = await loadSiteConfig();
  // The pages mark each missing legal fact; the operator should hear about them here too.
  const missing = missingLegalFacts(site);
  if (missing.length > 0) {
    console.warn(
      `config.json leaves out legal facts the privacy policy and the imprint show as placeholders: ${missing.join(', ')}`,
    );
  }
  const texts = await readTexts(site.brand);
  // Images a build made stay in node_modules/.cache, under names made from what they show, so that
  // the next build renders only the cards whose title or brand changed.
  const shareImage = shareImageWriter({
    save: (urlPath, png) => writeOut(urlPath.slice(1), png),
    cacheDir: path.join(ROOT, 'node_modules/.cache/share-images'),
    colours: brandColours(await readFile(path.join(ROOT, 'src/client/styles/tokens.css'), 'utf8')),
  });
  const renderer = await loadPageRenderer(path.join(ROOT, 'dist'), shareImage);
  const { siteConfigScript, APP_LOADER_SCRIPT } = renderer.bundle;
  const css = renderer.criticalCss;

  for (const target of allPagePaths()) {
    await writeOut(`${target.path.slice(1)}/index.html`, await renderer.render(target, texts, site));
  }

  const root = await rootPage(css);
  await writeOut('index.html', root.html);
  await writeOut(
    `${CONSOLE_ROOT.slice(1)}/index.html`,
    await consolePage(path.join(ROOT, 'dist'), texts, site.brand.siteName, siteConfigScript(configForPage(site, null))),
  );

  const sitemap = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
${sitemapPaths()
  .map(({ path: p }) => {
    const links = headLinks(site.siteUrl, { pathname: p });
    const canonical = links.find((link) => link.rel === 'canonical')?.href;
    const alternates = links
      .filter((link) => link.rel === 'alternate')
      .map((link) => `    <xhtml:link rel="alternate" hreflang="${link.hreflang}" href="${link.href}"/>`)
      .join('\n');
    return `  <url>\n    <loc>${canonical}</loc>\n${alternates}\n  </url>`;
  })
  .join('\n')}
</urlset>
`;
  await writeOut('sitemap.xml', sitemap);
  await writeOut('robots.txt', `User-agent: *\nAllow: /\n\nSitemap: ${site.siteUrl}/sitemap.xml\n`);

  // The server builds its Content-Security-Policy from these: the only inline scripts and styles there are.
  const inline = {
    scripts: [...new Set([...pageConfigs(site).map(siteConfigScript), APP_LOADER_SCRIPT, root.script].map(sha256))],
    styles: [...new Set([css, ...renderer.inlinedSheets, brandCss(site)].filter(Boolean).map(sha256))],
  };
  await writeFile(path.join(ROOT, 'dist/inline-hashes.json'), `${JSON.stringify(inline, null, 2)}\n`);

  await precompress(await listFiles(CLIENT_DIR));
  console.log(
    `prerendered ${allPagePaths().length} pages, the root page, the console's page, sitemap.xml and robots.txt`,
  );
}

await main();
