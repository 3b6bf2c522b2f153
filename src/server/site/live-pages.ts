// A running server's own renders of the pages whose texts the console published (decision 200):
// the same renderer as the build, the same compression, set into the files the site handler serves.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { brandCss, brandPalette } from '#common/brand-palette.ts';
import { LANGUAGES, type Language, type Texts } from '#common/languages.ts';
import { allPagePaths, CONSOLE_ROOT, type PageId, pageNamespaces } from '#common/routes.ts';
import type { ShareCard, ShareImage } from '#common/share-card.ts';
import { fillBrand, type SiteConfig } from '#common/site-config.ts';
import { configForPage, pageConfigs } from '#common/site-pictures.ts';
import { contentSecurityPolicy, type InlineHashes, inlineCodeOf } from '#server/http/security-headers.ts';
import { errorFields, log } from '#server/platform/log.ts';
import { ROOT } from '#server/platform/site-config.ts';
import { bodyOf, madeFile, type StaticFile } from './build-files.ts';
import { consolePage } from './console-page.ts';
import { faviconFrom } from './favicon.ts';
import { loadPageRenderer, type PageRenderer, type PageTarget } from './page-renderer.ts';

const FAVICON_PATH = '/favicon.png';
/** Brotli's quality for a page's first answer after a render: a few milliseconds a page (11 takes ~80). */
const QUICK_BROTLI = 5;
const CONSOLE_PAGE = `${CONSOLE_ROOT}/index.html`;
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** A language and namespace of the texts, as the texts files are split: `th/home`. */
export const partKey = (language: string, namespace: string) => `${language}/${namespace}`;

/** The published texts as the pages read them (the texts editor's catalog). */
export interface PublishedTexts {
  /** Every namespace of these languages. */
  texts(languages: readonly Language[]): Texts;
  /** One namespace of one language. */
  tree(language: Language, namespace: string): unknown;
  /** The namespaces of text parts published over the release's, as `language/namespace` (decision 235). */
  editedParts(): string[];
}

/** An uploaded logo, as the brand settings hold it. */
export interface LogoFile {
  path: string;
  type: string;
  body: Uint8Array;
  width: number;
  height: number;
}

/** A file the configuration names and the database holds (a page's picture), served under `path`. */
export interface AssetFile {
  path: string;
  body: Uint8Array;
}

/** Renders the pages whose texts changed, every page when the configuration changed, and drafts for a preview. */
export interface PagePublisher {
  /** `changed` holds the parts (`partKey`) that read differently now. */
  update(changed: ReadonlySet<string>, published: PublishedTexts): Promise<void>;
  /**
   * The site's configuration (the object this publisher was made with) changed: every page, the
   * console's page, the logo and the favicon again; `assets` (the pages' pictures) are served from
   * the moment the pages that name them are. With `only` (a picture's own pages, when nothing but
   * pictures changed), those pages alone: no other carries the pictures (decision 251).
   */
  rebuild(
    published: PublishedTexts,
    logo: LogoFile | null,
    assets?: readonly AssetFile[],
    only?: readonly PageId[],
  ): Promise<void>;
  /**
   * A picture of a page with draft texts: no script runs in it (no analytics, no texts loaded over
   * it), and `policy` allows its inline styles.
   */
  preview(target: PageTarget, texts: Texts): Promise<{ html: string; policy: string }>;
  /**
   * Draws a share image a rendered page names, on its first request, and serves it from then on;
   * undefined when no such image waits. Resolves (never rejects) once the image is served or has failed.
   */
  drawShareImage(urlPath: string): Promise<void> | undefined;
}

/**
 * Renders into `files` (the map the site handler serves from). The renderer, React's server
 * code and the share images' renderer load on the first publish, not at start: an instance whose
 * texts were never edited does not carry them.
 */
export function livePages(options: {
  siteDir: string;
  files: Map<string, StaticFile>;
  /** The configuration in force: changed in place by the brand settings, then `rebuild`. */
  site: SiteConfig;
  /** The inline code the build made (dist/inline-hashes.json). */
  inline: InlineHashes;
  /** Where share images rendered once are kept between starts. */
  cacheDir: string;
}): PagePublisher {
  const { siteDir, files, site } = options;
  // The build's favicon, put back when the logo goes.
  const builtFavicon = files.get(FAVICON_PATH);
  /** The logo in force, which the share images draw before it is served. */
  let logoNow: LogoFile | null = null;
  /**
   * The share images the pages rendered here name and nobody has asked for yet, each with the way
   * to draw it. Kept after the pages that name them are replaced: a crawler may hold an older page.
   */
  const undrawn = new Map<string, () => Promise<unknown>>();
  /**
   * The text parts published over that the pages served name (decision 235): the build's name
   * none. When the list changes, every page is rendered again, in every language, since any page
   * may be where a visitor starts and then switches language: the changed languages' pages before
   * the publisher answers, the others right after.
   */
  let editedNow = '';
  let renderer: Promise<PageRenderer> | undefined;
  const load = () => {
    renderer ??= (async () => {
      const { brandColours, shareImageWriter } = await import('./share-image.ts');
      const design = brandColours(await readFile(path.join(ROOT, 'src/client/styles/tokens.css'), 'utf8'));
      const writers = new Map<string, ReturnType<typeof shareImageWriter>>();
      // The card is drawn on the brand colour in force when the page is rendered.
      const shareImage: (card: ShareCard) => Promise<ShareImage> = (card) => {
        const palette = site.appearance?.accent ? brandPalette(site.appearance.accent) : null;
        const colours = palette ? { accent: palette.light.accent, accentText: palette.light.accentText } : design;
        const key = `${colours.accent}${colours.accentText}`;
        let writer = writers.get(key);
        if (!writer) {
          writer = shareImageWriter({
            save: async (urlPath, png) => {
              if (!files.has(urlPath)) files.set(urlPath, await madeFile(urlPath, png));
            },
            cacheDir: options.cacheDir,
            logoData: (urlPath) => {
              if (logoNow?.path === urlPath) return logoNow.body;
              const file = files.get(urlPath);
              return file && bodyOf(file);
            },
            // The build's images are served already; the others wait for their first request.
            drawLater: (urlPath, draw) => {
              if (!files.has(urlPath)) undrawn.set(urlPath, draw);
            },
            colours,
          });
          writers.set(key, writer);
        }
        return writer(card);
      };
      return loadPageRenderer(siteDir, shareImage);
    })();
    return renderer;
  };
  const filled = (texts: Texts) => fillBrand(texts, site.brand);
  // One render at a time: a page rendered for new texts never lands after one for a new brand.
  let queue: Promise<unknown> = Promise.resolve();
  /** Works queued or running. */
  let queued = 0;
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    queued++;
    const run = queue.then(work).finally(() => queued--);
    queue = run.catch(() => {});
    return run;
  };

  /**
   * The inline code a render makes, which its pages' policies allow (decision 250): the build's,
   * and the configuration script and palette of the configuration in force, which differ from the
   * build's once the console set a brand (or when config.json names no public address).
   */
  const allowedFor = (render: PageRenderer): InlineHashes => ({
    scripts: [
      ...options.inline.scripts,
      ...pageConfigs(site).map((config) => sha256(render.bundle.siteConfigScript(config))),
    ],
    styles: [...options.inline.styles, ...(brandCss(site) ? [sha256(brandCss(site))] : [])],
  });

  /**
   * Renders `targets` with the published texts into `made`. The pages are rendered one after the
   * other (React's renderer is synchronous) and compressed side by side on libuv's threads, first
   * with a quick brotli (some 8% larger) so that they are served at once; `improve` then compresses
   * them again at brotli's best, as the build does (about 80 ms a page), and swaps each in.
   */
  const renderInto = async (made: Map<string, StaticFile>, targets: PageTarget[], published: PublishedTexts) => {
    // A text of the chat alone changes no page: its texts file is all there is to serve.
    if (targets.length === 0) return async () => {};
    const render = await load();
    const allowed = allowedFor(render);
    const languages = [...new Set(targets.map((target) => target.language))];
    const texts = new Map(languages.map((language) => [language, filled(published.texts([language]))]));
    const editedTexts = published.editedParts();
    const pages: [string, string][] = [];
    for (const target of targets) {
      const html = await render.render(target, texts.get(target.language) ?? {}, site, { editedTexts });
      pages.push([`${target.path}/index.html`, html]);
      // A page renders without waiting for anything: between two, the requests that came meanwhile
      // are answered, or a whole site's render (a second or more) would hold them all.
      await new Promise((resolve) => setImmediate(resolve));
    }
    editedNow = editedTexts.join(' ');
    const quick = await Promise.all(
      pages.map(([urlPath, html]) => madeFile(urlPath, html, { brotliQuality: QUICK_BROTLI, allowed })),
    );
    for (const [index, [urlPath]] of pages.entries()) made.set(urlPath, quick[index] as StaticFile);
    return () => improve(pages, quick, allowed);
  };

  /** Puts each page's best compression in place of its quick one, unless a newer render replaced it meanwhile. */
  const improve = async (pages: [string, string][], quick: StaticFile[], allowed: InlineHashes) => {
    for (const [index, [urlPath, html]] of pages.entries()) {
      // Renders first: until they are done, a page is served in its quick compression.
      while (queued > 0) await queue;
      if (files.get(urlPath) !== quick[index]) continue;
      const best = await madeFile(urlPath, html, { allowed });
      if (files.get(urlPath) === quick[index]) files.set(urlPath, best);
    }
  };
  const later = (work: () => Promise<void>, failure: string) => {
    void serially(work).catch((error: unknown) => log.error(errorFields(error), failure));
  };
  // The best compression (seconds for the whole site) waits for the renders, page by page, instead of
  // being queued among them: a publish never waits for an earlier one's pages to be compressed again.
  let improving: Promise<void> = Promise.resolve();
  const improveLater = (work: () => Promise<void>) => {
    improving = improving
      .then(work)
      .catch((error: unknown) => log.error(errorFields(error), 'Pages could not be compressed again'));
  };

  /**
   * Serves `made` all at once (a visitor never gets a page of the new texts with a texts file of
   * the old), then has its pages compressed at their best.
   */
  const serve = (made: Map<string, StaticFile>, improveThem: () => Promise<void>) => {
    for (const [urlPath, file] of made) files.set(urlPath, file);
    improveLater(improveThem);
  };

  return {
    rebuild: (published, logo, assets = [], only = []) =>
      serially(async () => {
        const render = await load();
        const made = new Map<string, StaticFile>();
        logoNow = logo;
        if (logo) {
          made.set(logo.path, await madeFile(logo.path, logo.body));
          made.set(FAVICON_PATH, await madeFile(FAVICON_PATH, await faviconFrom(logo)));
        } else if (builtFavicon) {
          made.set(FAVICON_PATH, builtFavicon);
        }
        // Named by their content: one served already is the same file.
        for (const asset of assets) {
          if (!files.has(asset.path)) made.set(asset.path, await madeFile(asset.path, asset.body));
        }
        if (only.length > 0) {
          const own = allPagePaths().filter((target) => only.includes(target.page));
          return serve(made, await renderInto(made, own, published));
        }
        const rendered = await renderInto(made, allPagePaths(), published);
        const consoleHtml = await consolePage(
          siteDir,
          published.texts(LANGUAGES),
          site.brand.siteName,
          render.bundle.siteConfigScript(configForPage(site, null)),
        );
        made.set(CONSOLE_PAGE, await madeFile(CONSOLE_PAGE, consoleHtml, { allowed: allowedFor(render) }));
        serve(made, rendered);
      }),

    update: (changed, catalog) =>
      serially(async () => {
        const languages = [...new Set([...changed].map((part) => part.split('/')[0] as Language))];
        const listChanged = catalog.editedParts().join(' ') !== editedNow;
        // A new list of edited parts reaches every page, the changed languages' first: the
        // others only need it for a visitor who switches language, so they follow in the
        // background (the list they render is the newest by then).
        const targets = listChanged
          ? allPagePaths(languages)
          : allPagePaths(languages).filter((target) =>
              pageNamespaces(target.page).some((namespace) => changed.has(partKey(target.language, namespace))),
            );
        const made = new Map<string, StaticFile>();
        // The texts files the app reads after the paint, as the build copies them: unfilled.
        for (const part of changed) {
          const [language = '', namespace = ''] = part.split('/');
          const urlPath = `/locales/${language}/${namespace}.json`;
          made.set(urlPath, await madeFile(urlPath, JSON.stringify(catalog.tree(language as Language, namespace))));
        }
        serve(made, await renderInto(made, targets, catalog));
        if (listChanged) {
          const others = allPagePaths(LANGUAGES.filter((language) => !languages.includes(language)));
          later(async () => {
            const rest = new Map<string, StaticFile>();
            serve(rest, await renderInto(rest, others, catalog));
          }, 'Pages of the other languages could not be rendered again');
        }
      }),

    preview: (target, texts) =>
      serially(async () => {
        const render = await load();
        const html = await render.render(target, filled(texts), site, { shareImage: false });
        const still = html.replace(
          /<script\b(?![^>]*type="application\/(?:json|ld\+json)")[^>]*>[\s\S]*?<\/script>/g,
          '',
        );
        return { html: still, policy: contentSecurityPolicy(inlineCodeOf(still, allowedFor(render))) };
      }),

    drawShareImage: (urlPath) => {
      const draw = undrawn.get(urlPath);
      if (!draw) return undefined;
      return draw().then(
        () => void undrawn.delete(urlPath),
        (error: unknown) => log.error(errorFields(error), 'A share image could not be drawn'),
      );
    },
  };
}
