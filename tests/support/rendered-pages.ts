import { renderDocument } from '#client/app/entry-prerender.tsx';
import { resolvePath } from '#common/routes.ts';
import { loadSiteConfig, readTexts } from '#server/platform/site-config.ts';
import type { PageHtml } from '#server/site/build-files.ts';

const site = await loadSiteConfig();
const texts = await readTexts(site.brand);
/** Stand-ins for the build's assets: the pages' own HTML is what a test reads. */
const assets = { styles: [{ css: 'body{}' }], entry: '/assets/entry.js', preloads: [] };

/**
 * The site's pages as the build renders them, made on first use (no build needed): what `pages`
 * gives the API in production, for tests of the answers made from them.
 */
export async function renderedPages(paths: readonly string[]): Promise<PageHtml> {
  const html = new Map<string, string>();
  for (const path of paths) {
    const resolved = resolvePath(path);
    if (resolved.kind !== 'page') throw new Error(`${path} is not a page`);
    const { page, language } = resolved;
    html.set(path, await renderDocument({ path, page, language, resources: texts, site, assets }));
  }
  return (path) => html.get(path);
}
