import { DEFAULT_CONTACT_SUBJECTS } from './contact-api.ts';

/**
 * The operator's brand. Set in public/locales/config.json; the build bakes it into the pages and the
 * browser reads it from the `__SITE_CONFIG__` global the pages define.
 */
export interface SiteConfig {
  brand: { siteName: string; domain: string };
  /** Public address of the site, used for canonical links, the sitemap and links in mail. */
  siteUrl: string;
  privacy: {
    /**
     * The privacy option: compute the device fingerprint (and set `_fpid`) only after the visitor
     * accepted analytics, for sites that must not fingerprint without consent. Off by default.
     */
    fingerprintAfterConsent: boolean;
  };
  contact: {
    /**
     * The subjects the contact form offers, in order; each needs its label under `subjects.<id>`
     * in every language's contact.json. The team's address is the server's (CONTACT_EMAIL), not here:
     * pages carry this configuration.
     */
    subjects: string[];
  };
}

export const DEFAULT_SITE_CONFIG: SiteConfig = {
  brand: { siteName: 'Your Company', domain: 'localhost' },
  siteUrl: 'http://localhost:3000',
  privacy: { fingerprintAfterConsent: false },
  contact: { subjects: [...DEFAULT_CONTACT_SUBJECTS] },
};

/** Fills `{{siteName}}` and `{{domain}}` in every text of a translation file. */
export function fillBrand<T>(texts: T, brand: SiteConfig['brand']): T {
  return JSON.parse(
    JSON.stringify(texts).replace(/\{\{(siteName|domain)\}\}/g, (_, key: 'siteName' | 'domain') =>
      JSON.stringify(brand[key]).slice(1, -1),
    ),
  ) as T;
}
