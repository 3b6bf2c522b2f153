import { APP_LOADER_SCRIPT, renderDocument, siteConfigScript } from '#client/app/entry-prerender.tsx';
import { resolvePath } from '#common/routes.ts';
import { type InlineHashes, inlineCodeOf } from '#server/http/security-headers.ts';
import { loadSiteConfig, readTexts } from '#server/platform/site-config.ts';
import type { PageHtml } from '#server/site/build-files.ts';
import { hashOf } from './inline-code.ts';

const site = await loadSiteConfig();
const texts = await readTexts(site.brand);
/** Stand-ins for the build's assets: the pages' own HTML is what a test reads. */
export const STAND_IN_CSS = 'body{}';
const assets = { styles: [{ css: STAND_IN_CSS }], entry: '/assets/entry.js', preloads: [] };
/** The inline code these pages carry, as the build lists it in inline-hashes.json. */
const allowed: InlineHashes = {
  scripts: [siteConfigScript(site), APP_LOADER_SCRIPT].map(hashOf),
  styles: [hashOf(STAND_IN_CSS)],
};

/**
 * The site's pages as the build renders them, made on first use (no build needed): what `pages`
 * gives the API in production, for tests of the answers made from them.
 */
export async function renderedPages(paths: readonly string[]): Promise<PageHtml> {
  const pages = new Map<string, { html: string; inline: InlineHashes }>();
  for (const path of paths) {
    const resolved = resolvePath(path);
    if (resolved.kind !== 'page') throw new Error(`${path} is not a page`);
    const { page, language } = resolved;
    const html = await renderDocument({ path, page, language, resources: texts, site, assets });
    pages.set(path, { html, inline: inlineCodeOf(html, allowed) });
  }
  return (path) => pages.get(path);
}
