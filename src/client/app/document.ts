import type { PageHead } from '#client/features/head/page-head.ts';
import type { SiteConfig } from '#common/site-config.ts';
import { BOOT_ELEMENT_ID, type BootData, serializeBootData } from './boot-data.ts';

/** Built files a page links to: the inlined stylesheet, the entry module and what it will import. */
export interface PageAssets {
  css: string;
  entry: string;
  preloads: string[];
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * Loads the app once the page has loaded and painted: the HTML is complete and usable without it,
 * so its code never competes with the first paint. The same for every page (its hash goes into
 * the CSP); the modules to load are listed on the boot data element.
 */
export const APP_LOADER_SCRIPT =
  'addEventListener("load",function(){requestAnimationFrame(function(){setTimeout(function(){' +
  `var h=document.head;document.getElementById("${BOOT_ELEMENT_ID}").dataset.modules.split(" ").forEach(function(u,i){` +
  'var e=document.createElement(i?"link":"script");if(i){e.rel="modulepreload";e.href=u}else{e.type="module";e.src=u}h.append(e)})})})})';

/** The script that defines the site configuration global; its hash goes into the CSP. */
export function siteConfigScript(site: SiteConfig): string {
  return `window.__SITE_CONFIG__=${JSON.stringify(site).replace(/</g, '\\u003c')}`;
}

/** A whole prerendered page. Styles are inlined and the app loads after the first paint. */
export function documentHtml(options: {
  head: PageHead;
  appHtml: string;
  assets: PageAssets;
  site: SiteConfig;
  boot: BootData;
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
  return `<!doctype html>
<html lang="${escapeHtml(head.language)}" dir="${head.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(head.title)}</title>
<meta name="description" content="${escapeHtml(head.description)}">
${head.noindex ? '<meta name="robots" content="noindex">\n' : ''}${links}
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<meta name="theme-color" content="#1d4ed8">
<style>${assets.css}</style>
<script>${siteConfigScript(options.site)}</script>
</head>
<body>
<div id="root">${options.appHtml}</div>
<script type="application/json" id="${BOOT_ELEMENT_ID}" data-modules="${modules}">${serializeBootData(options.boot)}</script>
<script>${APP_LOADER_SCRIPT}</script>
</body>
</html>
`;
}
