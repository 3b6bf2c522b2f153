// One page in one language as the build writes it, from the client build's manifest and
// stylesheets and the server-side bundle of the app (dist/prerender): used by the build for every
// page, and by a running server for the pages whose texts the console published (decision 200).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Language, Texts } from '#common/languages.ts';
import { PAGE_IDS, type PageId } from '#common/routes.ts';
import type { ShareCard, ShareImage } from '#common/share-card.ts';
import type { SiteConfig } from '#common/site-config.ts';
import {
  criticalStylesheets,
  ENTRY,
  type Manifest,
  pageModuleKey,
  pageStylesheets,
  startModules,
} from './app-modules.ts';

/** What the server-side bundle exports (src/client/app/entry-prerender.tsx). */
interface PrerenderBundle {
  renderDocument(options: {
    path: string;
    page: PageId;
    language: Language;
    resources: Texts;
    site: SiteConfig;
    assets: { styles: { css: string; href?: string }[]; entry: string; preloads: string[] };
    shareImage?: (card: ShareCard) => Promise<ShareImage>;
    editedTexts?: readonly string[];
  }): Promise<string>;
  siteConfigScript(site: SiteConfig): string;
  APP_LOADER_SCRIPT: string;
}

/** A page in one language, as the page table names it. */
export interface PageTarget {
  page: PageId;
  language: Language;
  /** Its address: `/th/about`. */
  path: string;
}

export interface PageRenderer {
  /**
   * The whole document; `texts` holds every namespace of the language, brand filled in. A preview
   * asks for no share image: a draft's title gets no picture. `editedTexts` names the text parts
   * published over the release's (decision 235).
   */
  render(
    target: PageTarget,
    texts: Texts,
    site: SiteConfig,
    options?: { shareImage?: false; editedTexts?: readonly string[] },
  ): Promise<string>;
  /** The critical stylesheet, inlined on every page (the root page's too). */
  criticalCss: string;
  /** Every stylesheet a page may inline: what the security policy's style hashes cover. */
  inlinedSheets: string[];
  bundle: PrerenderBundle;
}

/**
 * Reads a build in `siteDir` (the client files and the server-side bundle) once. `shareImage`
 * renders each page's share image; without it, pages have none.
 */
export async function loadPageRenderer(
  siteDir: string,
  shareImage?: (card: ShareCard) => Promise<ShareImage>,
): Promise<PageRenderer> {
  const clientDir = path.join(siteDir, 'client');
  const manifest = JSON.parse(await readFile(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entry = manifest[ENTRY];
  if (!entry) throw new Error(`${ENTRY} is missing from the Vite manifest`);
  const critical = criticalStylesheets(manifest);
  // Every sheet a page is painted with, read once: the critical one, then each page's own (those
  // its module brings beyond the critical one).
  const sheets = new Map<string, string>();
  for (const file of [...critical, ...PAGE_IDS.flatMap((page) => pageStylesheets(manifest, page))]) {
    if (!sheets.has(file)) sheets.set(file, await readFile(path.join(clientDir, file), 'utf8'));
  }
  const criticalCss = critical.map((file) => sheets.get(file)).join('\n');
  if (!criticalCss) throw new Error('the build has no stylesheet for the entry module');
  // Written with a link to its file, which the app's chunks name among what they preload.
  const inlined = (file: string) => ({ css: sheets.get(file) ?? '', href: `/${file}` });
  const bundle = (await import(path.join(siteDir, 'prerender/entry-prerender.js'))) as PrerenderBundle;

  return {
    criticalCss,
    inlinedSheets: [...sheets.values()],
    bundle,
    render: (target, texts, site, options) =>
      bundle.renderDocument({
        path: target.path,
        page: target.page,
        language: target.language,
        resources: texts,
        site,
        assets: {
          styles: [...critical, ...pageStylesheets(manifest, target.page)].map(inlined),
          entry: `/${entry.file}`,
          preloads: [...startModules(manifest, pageModuleKey(target.page))]
            .filter((key) => key !== ENTRY)
            .map((key) => `/${manifest[key]?.file}`),
        },
        shareImage: options?.shareImage === false ? undefined : shareImage,
        editedTexts: options?.editedTexts,
      }),
  };
}
