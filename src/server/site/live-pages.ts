// A running server's own renders of the pages whose texts the console published (decision 200):
// the same renderer as the build, the same compression, set into the files the site handler serves.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Language, Texts } from '#common/languages.ts';
import { allPagePaths, pageNamespaces } from '#common/routes.ts';
import { fillBrand, type SiteConfig } from '#common/site-config.ts';
import { ROOT } from '#server/platform/site-config.ts';
import { madeFile, type StaticFile } from './build-files.ts';
import { loadPageRenderer, type PageRenderer, type PageTarget } from './page-renderer.ts';

/** A language and namespace of the texts, as the texts files are split: `th/home`. */
export const partKey = (language: string, namespace: string) => `${language}/${namespace}`;

/** The published texts as the pages read them (the texts editor's catalog). */
export interface PublishedTexts {
  /** Every namespace of these languages. */
  texts(languages: readonly Language[]): Texts;
  /** One namespace of one language. */
  tree(language: Language, namespace: string): unknown;
}

/** Renders the pages whose texts changed, and drafts for a preview. */
export interface PagePublisher {
  /** `changed` holds the parts (`partKey`) that read differently now. */
  update(changed: ReadonlySet<string>, published: PublishedTexts): Promise<void>;
  preview(target: PageTarget, texts: Texts): Promise<string>;
}

/**
 * Renders into `files` (the map the site handler serves from). The renderer, React's server
 * code and the share images' renderer load on the first publish, not at start: an instance whose
 * texts were never edited does not carry them.
 */
export function livePages(options: {
  siteDir: string;
  files: Map<string, StaticFile>;
  site: SiteConfig;
  /** Where share images rendered once are kept between starts. */
  cacheDir: string;
}): PagePublisher {
  const { siteDir, files, site } = options;
  let renderer: Promise<PageRenderer> | undefined;
  const load = () => {
    renderer ??= (async () => {
      const { brandColours, shareImageWriter } = await import('./share-image.ts');
      const shareImage = shareImageWriter({
        save: async (urlPath, png) => {
          if (!files.has(urlPath)) files.set(urlPath, await madeFile(urlPath, png));
        },
        cacheDir: options.cacheDir,
        colours: brandColours(await readFile(path.join(ROOT, 'src/client/styles/tokens.css'), 'utf8')),
      });
      return loadPageRenderer(siteDir, shareImage);
    })();
    return renderer;
  };
  const filled = (texts: Texts) => fillBrand(texts, site.brand);

  return {
    async update(changed, catalog) {
      const languages = new Set([...changed].map((part) => part.split('/')[0] as Language));
      const targets = allPagePaths([...languages]).filter((target) =>
        pageNamespaces(target.page).some((namespace) => changed.has(partKey(target.language, namespace))),
      );
      const made = new Map<string, StaticFile>();
      // The texts files the app reads after the paint, as the build copies them: unfilled.
      for (const part of changed) {
        const [language = '', namespace = ''] = part.split('/');
        const urlPath = `/locales/${language}/${namespace}.json`;
        made.set(urlPath, await madeFile(urlPath, JSON.stringify(catalog.tree(language as Language, namespace))));
      }
      const texts = new Map([...languages].map((language) => [language, filled(catalog.texts([language]))]));
      const render = await load();
      for (const target of targets) {
        const urlPath = `${target.path}/index.html`;
        made.set(urlPath, await madeFile(urlPath, await render.render(target, texts.get(target.language) ?? {}, site)));
      }
      // All at once: a visitor never gets a page of the new texts with a texts file of the old.
      for (const [urlPath, file] of made) files.set(urlPath, file);
    },

    async preview(target, texts) {
      return (await load()).render(target, filled(texts), site, { shareImage: false });
    },
  };
}
