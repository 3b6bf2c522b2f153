import { createInstance, type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language, Texts } from '#common/languages.ts';
import { fillBrand, type SiteConfig } from '#common/site-config.ts';
import { LazyHttpBackend } from './lazy-http-backend.ts';
import { baseOptions } from './options.ts';

/** The brand of /locales/config.json, read once; null when it cannot be read (texts stay as they are). */
let brand: SiteConfig['brand'] | null = null;
let brandRead: Promise<void> | null = null;
function readBrandOnce(): Promise<void> {
  brandRead ??= fetch('/locales/config.json')
    .then((response) => (response.ok ? response.json() : null))
    .then((config: Partial<SiteConfig> | null) => {
      brand = config?.brand ?? null;
    })
    .catch(() => {
      brand = null;
    });
  return brandRead;
}

/**
 * The browser's i18next. It starts synchronously in the page's language (the path decides it) with
 * the texts the prerendered page carries, and loads other namespaces over HTTP only when a
 * navigation needs them.
 */
export function createClientI18n(site: SiteConfig, language: Language, resources: Texts): i18n {
  const instance = createInstance();
  instance
    .use(LazyHttpBackend)
    .use(initReactI18next)
    .init({
      ...baseOptions(site),
      lng: language,
      resources,
      partialBundledLanguages: true,
      backend: {
        // Waits for the brand so that every file is parsed with it.
        loadPath: () => readBrandOnce().then(() => '/locales/{{lng}}/{{ns}}.json'),
        parse: (data: string) => {
          const texts = JSON.parse(data);
          return brand ? fillBrand(texts, brand) : texts;
        },
      },
      maxRetries: 5,
      retryTimeout: 350,
      maxParallelReads: 10,
    });
  return instance;
}
