import type { i18n as I18n } from 'i18next';
import { StrictMode, startTransition } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createClientI18n, textsReady } from '#client/features/i18n/index.ts';
import { BrowserAddress } from '#client/lib/address.tsx';
import { adoptFormatted } from '#client/lib/formats.ts';
import { startPictures } from '#client/lib/page-pictures.ts';
import { readPageSiteConfig, SiteConfigProvider } from '#client/lib/site-config.tsx';
import { matchPage, pageNamespaces } from '#common/routes.ts';
import { App } from './App.tsx';
import { BOOT_ELEMENT_ID, type BootData } from './boot-data.ts';
import { loadPage } from './page-modules.ts';
import './critical.css';

const boot = JSON.parse(document.getElementById(BOOT_ELEMENT_ID)?.textContent ?? '{}') as BootData;
const site = readPageSiteConfig();

/** Lets the browser run what waits (a tap, a paint) before the next step of the start. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const succeeds = (promise: Promise<void>) =>
  promise.then(
    () => true,
    () => false,
  );

function hydrate(i18n: I18n, hydrateRoot: typeof import('react-dom/client').hydrateRoot) {
  const root = document.getElementById('root');
  if (!root) return;
  // As a transition, hydration yields to the browser every few milliseconds instead of holding
  // the main thread for the whole page.
  startTransition(() => {
    hydrateRoot(
      root,
      <StrictMode>
        <SiteConfigProvider value={site}>
          <I18nextProvider i18n={i18n}>
            <BrowserAddress>
              <App />
            </BrowserAddress>
          </I18nextProvider>
        </SiteConfigProvider>
      </StrictMode>,
    );
  });
}

// With the page's module here before hydration (the loader preloads it), React hydrates the
// prerendered page in one pass, without suspending. No top-level await: the page's chunk imports
// this one, and a module cannot wait for a chunk that waits for it. Evaluating the modules, starting
// i18next and hydrating go in separate tasks: together they made one task long enough to delay a
// first tap on a slow phone.
//
// React DOM, two thirds of the app's code, is imported here rather than with the entry: as a module
// of its own (preloaded beside the entry: START_IMPORTS in src/server/site/app-modules.ts) it is compiled,
// set up and run in tasks of its own instead of adding to the entry's.
//
// A page whose texts stay out of its boot data (textsAfterPaint in routes.ts) fetches them
// alongside its module; should they not come, the page stays as the server wrote it, readable and
// with working links, rather than hydrate without its words.
async function start() {
  const current = matchPage(window.location.pathname);
  startPictures(current?.page);
  const page = current ? loadPage(current.page) : Promise.resolve();
  const reactDom = import('react-dom/client');
  await nextTask();
  const i18n = createClientI18n(site, boot.language, boot.resources);
  adoptFormatted(boot.formatted);
  const texts = current ? textsReady(i18n, boot.language, pageNamespaces(current.page), 'start') : true;
  await page;
  if (texts !== true && !(await succeeds(texts))) return;
  const { hydrateRoot } = await reactDom;
  await nextTask();
  hydrate(i18n, hydrateRoot);
}
void start();
