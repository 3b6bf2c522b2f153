import type { InitOptions } from 'i18next';
import { DEFAULT_NAMESPACE, LANGUAGES } from '#common/languages.ts';
import type { SiteConfig } from '#common/site-config.ts';

/**
 * Options shared by the browser and the prerender. There is no fallback language at run time: the
 * page language always comes from the path and is supported, and a test keeps every language
 * complete, so loading English beside it would only cost a request.
 */
export function baseOptions(site: SiteConfig): InitOptions {
  return {
    supportedLngs: [...LANGUAGES],
    fallbackLng: false,
    ns: [DEFAULT_NAMESPACE],
    defaultNS: DEFAULT_NAMESPACE,
    fallbackNS: false,
    load: 'languageOnly',
    // React escapes what it renders; escaping here too would show entities to the visitor.
    interpolation: { escapeValue: false, defaultVariables: { ...site.brand } },
    returnNull: false,
    initAsync: false,
    react: { useSuspense: true },
  };
}
