import { createContext, type ReactNode, useContext } from 'react';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '#common/site-config.ts';

declare global {
  interface Window {
    /** Set by every prerendered page from public/locales/config.json. */
    __SITE_CONFIG__?: SiteConfig;
  }
}

/** The brand in the browser: the global the page defines, else the placeholder defaults. */
export function readPageSiteConfig(): SiteConfig {
  return (typeof window !== 'undefined' && window.__SITE_CONFIG__) || DEFAULT_SITE_CONFIG;
}

const SiteConfigContext = createContext<SiteConfig>(DEFAULT_SITE_CONFIG);

export function SiteConfigProvider({ value, children }: { value: SiteConfig; children: ReactNode }) {
  return <SiteConfigContext value={value}>{children}</SiteConfigContext>;
}

export function useSiteConfig(): SiteConfig {
  return useContext(SiteConfigContext);
}
