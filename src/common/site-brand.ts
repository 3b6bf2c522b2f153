import type { Language } from './languages.ts';
import type { BrandLogo, ConsoleSettable, SiteConfig } from './site-config.ts';

/**
 * The brand in the console (admins): the site's name, its colour and logo, and the legal facts
 * config.json holds, changed without a rebuild (decision 203). config.json stays the base, and a
 * deployment pins parts of it there (`pinned`).
 */
export const BRAND_API = {
  /** GET: the configuration in force, with what the console set; PUT: `BrandChange`. */
  brand: '/api/console/brand',
  /** PUT with the image itself as the body (image/png or image/svg+xml, at most 512 KB); DELETE. */
  logo: '/api/console/brand/logo',
} as const;

/** Largest logo the console takes, in bytes. */
export const MAX_LOGO_BYTES = 512 * 1024;
export const LOGO_TYPES = ['image/png', 'image/svg+xml'] as const;

/** What an admin sends: parts of config.json in its own shape (null puts config.json's back), and the logo's texts. */
export interface BrandChange {
  brand?: { siteName?: string } | null;
  appearance?: { accent: string | null } | null;
  company?: Partial<SiteConfig['company']> | null;
  services?: { hosting?: Partial<SiteConfig['services']['hosting']> } | null;
  retention?: Partial<SiteConfig['retention']> | null;
  logoAlt?: Partial<Record<Language, string>>;
}

export interface BrandAnswer {
  /** What the site uses now. */
  config: Pick<SiteConfig, 'brand' | 'company' | 'services' | 'retention'> & {
    appearance: { accent: string | null; logo: BrandLogo | null };
  };
  /** The parts the console set (config.json's shape), and those config.json pins. */
  settings: Record<string, unknown>;
  pinned: ConsoleSettable[];
  /** Legal facts still missing (`company.legalName`...): the pages show a marked placeholder. */
  missing: string[];
}
