import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { createClientI18n, rememberLanguage } from '#client/features/i18n/index.ts';
import { BrowserAddress } from '#client/lib/address.tsx';
import { readPageSiteConfig, SiteConfigProvider } from '#client/lib/site-config.tsx';
import { ToastProvider } from '#client/lib/toast/ToastProvider.tsx';
import { bestLanguage } from '#common/languages.ts';
import { storageEntry } from '#common/storage.ts';
import { ConsoleApp } from './ConsoleApp.tsx';
import '#client/styles/tokens.css';
import '#client/styles/base.css';
import '#client/styles/buttons.css';
import '#client/styles/content.css';
import '#client/styles/forms.css';
import '#client/styles/toasts.css';
import './console.css';

/** What the console shows its texts from; the page needs no other. */
export const CONSOLE_NAMESPACES = ['common', 'console', 'errors', 'contact'] as const;

/** The language of the last page read or chosen on the site (or the browser's), since /console has no prefix. */
function startLanguage() {
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem(storageEntry('languageStored').name);
  } catch {
    // Storage may be blocked; the browser's languages still count.
  }
  return bestLanguage([...(stored ? [stored] : []), ...navigator.languages]);
}

async function start() {
  const site = readPageSiteConfig();
  const language = startLanguage();
  const i18n = createClientI18n(site, language, {});
  await i18n.loadNamespaces([...CONSOLE_NAMESPACES]);
  document.documentElement.lang = language;
  // Only the switcher changes the language here, and a choice is remembered for the site too.
  i18n.on('languageChanged', (next) => {
    document.documentElement.lang = next;
    rememberLanguage(bestLanguage([next]));
  });
  const root = document.getElementById('console');
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <SiteConfigProvider value={site}>
        <I18nextProvider i18n={i18n}>
          <ToastProvider>
            <BrowserAddress>
              <ConsoleApp />
            </BrowserAddress>
          </ToastProvider>
        </I18nextProvider>
      </SiteConfigProvider>
    </StrictMode>,
  );
}

void start();
