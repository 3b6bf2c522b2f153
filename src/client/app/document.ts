import { BEACON_NAMES, countPageView } from '#client/features/analytics/index.ts';
import type { PageHead, ShareHead } from '#client/features/head/index.ts';
import { brandCss } from '#common/brand-palette.ts';
import { EDITED_TEXTS_ATTRIBUTE } from '#common/edited-texts.ts';
import { FAVICON_LINK } from '#common/head.ts';
import { escapeHtml } from '#common/html.ts';
import type { SiteConfig } from '#common/site-config.ts';
import { BOOT_ELEMENT_ID, type BootData, serializeBootData } from './boot-data.ts';
import { whenPainted } from './first-paint.ts';

/** A stylesheet written into a page, so that its first paint waits for no request. */
export interface InlineSheet {
  css: string;
  /**
   * The built file that holds the same rules. It is written beside the copy as a disabled link,
   * which the browser does not fetch. A chunk the app imports later names that file among what it
   * preloads (the critical sheet's in every chunk that imports on demand, a page's own in its
   * module's); Vite's preload helper then finds a stylesheet link with that address and adds none,
   * so the page neither downloads the rules a second time nor restyles after the paint.
   */
  href?: string;
}

/** Built files a page links to: the inlined stylesheets, the entry module and what it will import. */
export interface PageAssets {
  /** The critical sheet first, then the page's own (scripts/build/prerender.ts). */
  styles: InlineSheet[];
  entry: string;
  preloads: string[];
}

/** The page's stylesheets as the head carries them. */
function inlineSheets(styles: readonly InlineSheet[]): string {
  return styles
    .map(({ css, href }) =>
      href
        ? `<style>${css}</style>\n<link rel="stylesheet" href="${escapeHtml(href)}" disabled>`
        : `<style>${css}</style>`,
    )
    .join('\n');
}

/**
 * Preloads added in one task. Each costs the main thread about a millisecond (several under a
 * debugger), and a page's dozen of them at once made a task long enough to delay a first tap.
 */
const PRELOADS_PER_TASK = 3;

/**
 * Adds preloads of the modules the app will import (listed on the boot data element), a few per
 * task, so that the browser fetches them side by side instead of one import after the other; then
 * the entry module. Last, so that when it runs, its own imports find every preload in place and add
 * none in its task. Part of the loader's inline script as source text, so it takes what it needs as
 * arguments.
 */
export function startApp(w: Window, bootId: string, perTask: number): void {
  const d = w.document;
  const [entry = '', ...preloads] = (d.getElementById(bootId)?.dataset.modules ?? '').split(' ');
  const next = () => {
    for (const url of preloads.splice(0, perTask)) {
      const link = d.createElement('link');
      link.rel = 'modulepreload';
      link.href = url;
      d.head.append(link);
    }
    if (preloads.length > 0) {
      w.setTimeout(next, 0);
      return;
    }
    const script = d.createElement('script');
    script.type = 'module';
    script.src = entry;
    d.head.append(script);
  };
  next();
}

/**
 * Puts the page's own address in the address bar when the server answered another address with it
 * (sign-in, for a visitor without a session who asked for their account: decision 092), before the
 * page view is counted and the app reads the address. The history entry keeps the address asked
 * for, so that the page can say why it is there. Part of the loader's inline script as source text.
 */
export function showOwnAddress(w: Window, bootId: string): void {
  const own = w.document.getElementById(bootId)?.dataset.path;
  if (!own || own === w.location.pathname) return;
  const { pathname, search, hash } = w.location;
  w.history.replaceState({ state: { askedFor: pathname } }, '', own + search + hash);
}

/**
 * Shows the page's own address (showOwnAddress). Counts the page view of a visitor who consented to
 * analytics as the page starts (countPageView: a visit left before the paint still goes as a beacon;
 * the app takes it over from `window.__pageView`). Once the browser has reported the page's first paint (whenPainted), sends
 * it under a known identifier and loads the app. The HTML is complete and usable without the app,
 * so its code never competes with the first paint. The same for every page (its hash goes into the
 * CSP).
 */
export const APP_LOADER_SCRIPT = `try{(${showOwnAddress})(window,${JSON.stringify(BOOT_ELEMENT_ID)})}catch(e){}try{window.__pageView=(${countPageView})(window,${JSON.stringify(BEACON_NAMES)})}catch(e){}(${whenPainted})(window,function(){try{window.__pageView&&window.__pageView.sendKnown()}catch(e){}(${startApp})(window,${JSON.stringify(BOOT_ELEMENT_ID)},${PRELOADS_PER_TASK})})`;

/** The script that defines the site configuration global; its hash goes into the CSP. */
export function siteConfigScript(site: SiteConfig): string {
  return `window.__SITE_CONFIG__=${JSON.stringify(site).replace(/</g, '\\u003c')}`;
}

/**
 * The preview's tags and the page's JSON-LD. The JSON-LD is a data block, which the browser never
 * runs, so the Content-Security-Policy needs no hash for it; `<` is escaped as in every inline JSON.
 */
function shareTags(share: ShareHead | undefined): string {
  if (!share) return '';
  const meta = share.meta.map(
    ({ attribute, key, content }) => `<meta ${attribute}="${escapeHtml(key)}" content="${escapeHtml(content)}">`,
  );
  const jsonLd = share.jsonLd
    ? [`<script type="application/ld+json">${JSON.stringify(share.jsonLd).replace(/</g, '\\u003c')}</script>`]
    : [];
  return `${[...meta, ...jsonLd].join('\n')}\n`;
}

/** The design's own accent (tokens.css), the browser's toolbar colour without a brand colour. */
const DESIGN_ACCENT = '#1d4ed8';

/**
 * The brand colour's palette as an inline style after the stylesheets (its hash joins the security
 * policy's, as the sheets' do), or nothing without one.
 */
function brandStyle(site: SiteConfig): string {
  const css = brandCss(site);
  return css ? `\n<style>${css}</style>` : '';
}

/** A whole prerendered page. Styles are inlined and the app loads after the first paint. */
export function documentHtml(options: {
  /** The page's own address, which the loader puts in the address bar when it differs. */
  path: string;
  head: PageHead;
  /** Written by the prerender only: the app does not keep these in step, as previews never run it. */
  share?: ShareHead;
  appHtml: string;
  assets: PageAssets;
  site: SiteConfig;
  boot: BootData;
  /** Named on the boot element, only when there are some: the build's pages stay as they were. */
  editedTexts?: readonly string[];
}): string {
  const { head, assets } = options;
  const links = head.links
    .map((link) =>
      link.hreflang
        ? `<link rel="alternate" hreflang="${escapeHtml(link.hreflang)}" href="${escapeHtml(link.href)}">`
        : `<link rel="canonical" href="${escapeHtml(link.href)}">`,
    )
    .join('\n');
  const modules = [assets.entry, ...assets.preloads].map(escapeHtml).join(' ');
  const edited = options.editedTexts?.length
    ? ` ${EDITED_TEXTS_ATTRIBUTE}="${escapeHtml(options.editedTexts.join(' '))}"`
    : '';
  return `<!doctype html>
<html lang="${escapeHtml(head.language)}" dir="${head.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(head.title)}</title>
<meta name="description" content="${escapeHtml(head.description)}">
${head.indexed ? '' : '<meta name="robots" content="noindex">\n'}${links}
${shareTags(options.share)}${FAVICON_LINK}
<meta name="theme-color" content="${escapeHtml(options.site.appearance?.accent ?? DESIGN_ACCENT)}">
${inlineSheets(assets.styles)}${brandStyle(options.site)}
<script>${siteConfigScript(options.site)}</script>
</head>
<body>
<div id="root">${options.appHtml}</div>
<script type="application/json" id="${BOOT_ELEMENT_ID}" data-modules="${modules}" data-path="${escapeHtml(options.path)}"${edited}>${serializeBootData(options.boot)}</script>
<script>${APP_LOADER_SCRIPT}</script>
</body>
</html>
`;
}
