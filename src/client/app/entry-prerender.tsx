import { createInstance } from 'i18next';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { pageHead, type ShareCard, type ShareImage, shareCard, shareHead } from '#client/features/head/index.ts';
import { baseOptions } from '#client/features/i18n/index.ts';
import { StaticAddress } from '#client/lib/address.tsx';
import { takeFormatted } from '#client/lib/formats.ts';
import { SiteConfigProvider } from '#client/lib/site-config.tsx';
import { LANGUAGES, type Language, type Texts } from '#common/languages.ts';
import { bootNamespaces, type PageId } from '#common/routes.ts';
import type { SiteConfig } from '#common/site-config.ts';
import { configForPage } from '#common/site-pictures.ts';
import { App } from './App.tsx';
import { documentHtml, type PageAssets } from './document.ts';
import { loadPage } from './page-modules.ts';

export { APP_LOADER_SCRIPT, siteConfigScript } from './document.ts';

/**
 * One page in one language as a whole HTML document, at build time. `resources` holds every
 * namespace of that language; the page carries only those it needs. `languages` is there so a test
 * can render a language that is not offered (a right-to-left one, say).
 */
export async function renderDocument(options: {
  path: string;
  page: PageId;
  language: Language;
  resources: Texts;
  site: SiteConfig;
  assets: PageAssets;
  /** Renders a page's share image (src/server/site/share-image.ts); without it, pages have no image. */
  shareImage?: (card: ShareCard) => Promise<ShareImage>;
  languages?: readonly string[];
  /** The text parts the console published over the release's, as `language/namespace` (decision 235). */
  editedTexts?: readonly string[];
}): Promise<string> {
  const { language, page } = options;
  // The page carries the picture it shows, not the others' (decision 251).
  const site = configForPage(options.site, page);
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    ...baseOptions(site),
    supportedLngs: [...(options.languages ?? LANGUAGES)],
    lng: language,
    resources: options.resources,
  });
  await loadPage(page);

  takeFormatted();
  const appHtml = renderToString(
    <StrictMode>
      <SiteConfigProvider value={site}>
        <I18nextProvider i18n={i18n}>
          <StaticAddress path={options.path}>
            <App />
          </StaticAddress>
        </I18nextProvider>
      </SiteConfigProvider>
    </StrictMode>,
  );

  const namespaces = bootNamespaces(page);
  const pageResources = {
    [language]: Object.fromEntries(namespaces.map((ns) => [ns, options.resources[language]?.[ns] ?? {}])),
  };
  const head = pageHead(i18n, page, language, site.siteUrl, { pathname: options.path });
  const card = shareCard(head, site);
  const image = card && options.shareImage ? await options.shareImage(card) : null;
  return documentHtml({
    path: options.path,
    head,
    share: shareHead(i18n, page, head, site, image),
    appHtml,
    assets: options.assets,
    site,
    boot: { language, resources: pageResources, formatted: takeFormatted() },
    editedTexts: options.editedTexts,
  });
}
