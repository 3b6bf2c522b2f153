import { DEFAULT_CONTACT_SUBJECTS } from './contact-api.ts';
import type { Language } from './languages.ts';
import type { SitePictures } from './site-pictures.ts';

/**
 * The company's configuration: brand, public address, the privacy option, and the facts the legal
 * pages state (who runs the site, who processes data for it, how long what the site does not keep
 * itself is kept). Set in public/locales/config.json; the build bakes it into the pages and the
 * browser reads it from the `__SITE_CONFIG__` global the pages define. The README documents each
 * field. An empty string or null means "not given": the pages show a marked placeholder where a
 * required fact is missing, and leave optional ones out.
 */
export interface SiteConfig {
  brand: { siteName: string; domain: string };
  /** The parts of this configuration the console may not change (the deployment pins them in config.json). */
  pinned?: ConsoleSettable[];
  /** How the brand looks, set in the console (or `accent` in config.json); the design's own without it. */
  appearance?: {
    /** The brand colour (`#rrggbb`) the palette is made from (brand-palette.ts). */
    accent: string | null;
    /** The logo an admin uploaded; the design's mark without it. */
    logo: BrandLogo | null;
    /** The pages' pictures editors uploaded (site-pictures.ts); none without. */
    pictures?: SitePictures;
  };
  /** Public address of the site, used for canonical links, the sitemap and links in mail. */
  siteUrl: string;
  privacy: {
    /**
     * The privacy option: compute the device fingerprint (and set `_fpid`) only after the visitor
     * accepted analytics, for sites that must not fingerprint without consent. Off by default.
     */
    fingerprintAfterConsent: boolean;
  };
  company: Company;
  services: Services;
  /** What the site does not keep itself, stated by the company in days; null when not stated. */
  retention: { serverLogDays: number | null; backupDays: number | null };
  accounts: {
    /** The youngest age at which a person may open an account (the terms say so, registration asks). */
    minimumAge: number;
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

/** The parts of the configuration an admin may change in the console, unless config.json pins them. */
export const CONSOLE_SETTABLE = ['brand', 'appearance', 'company', 'services', 'retention'] as const;
export type ConsoleSettable = (typeof CONSOLE_SETTABLE)[number];

/** An uploaded logo as the pages show it: where it is served, its size, and its text in each language. */
export interface BrandLogo {
  path: string;
  width: number;
  height: number;
  alt: Partial<Record<Language, string>>;
}

/** The controller of the privacy policy and the provider of the imprint. */
export interface Company {
  /** Full legal name with its legal form, e.g. "Example GmbH". */
  legalName: string;
  /** Postal address without the country, one line per entry. */
  address: string[];
  /** ISO 3166-1 alpha-2 code of the country the company is established in, e.g. "DE". */
  country: string;
  /** Where visitors write, about anything including their data. */
  email: string;
  phone: string;
  /** People who may represent the company (managing directors, board). */
  representatives: string[];
  /** Register and number, e.g. "Amtsgericht Berlin-Charlottenburg, HRB 123456". */
  register: string;
  vatId: string;
  /** Person responsible for editorial content, where the law asks for one. */
  contentResponsible: { name: string; address: string[] } | null;
  dataProtectionOfficer: { name: string; email: string } | null;
  /** Art. 27 GDPR: the representative in the EU of a company established outside it. */
  euRepresentative: { name: string; address: string[]; country: string; email: string } | null;
  supervisoryAuthority: { name: string; url: string };
}

/** How a transfer out of the EU/EEA is protected (Art. 45, 46(2)(c), 47 GDPR). */
export const SAFEGUARDS = ['adequacy', 'scc', 'bcr'] as const;
export type Safeguard = (typeof SAFEGUARDS)[number];

/** A company that processes data on the company's behalf. */
export interface Service {
  name: string;
  /** ISO 3166-1 alpha-2 code of the country where it processes the data. */
  country: string;
  /** Needed when that country is outside the EU/EEA; null otherwise. */
  safeguard: Safeguard | null;
}

/** A service that keeps data for the company for a period the company states. */
export interface RetainingService extends Service {
  retentionDays: number | null;
}

export interface Services {
  /** Runs the servers; required. */
  hosting: Service;
  /** A database run by another company; null when it runs on the hosting (the embedded default). */
  database: Service | null;
  /** The SMTP provider (SMTP_URL); null without one, when mail stays in the outbox. */
  mail: Service | null;
  /** PostHog (POSTHOG_HOST): the company and the country of the project's region; null without it. */
  posthog: RetainingService | null;
  /** The trace collector (OTEL_EXPORTER_OTLP_ENDPOINT); null without one, when traces are dropped. */
  traces: RetainingService | null;
}

export const DEFAULT_SITE_CONFIG: SiteConfig = {
  brand: { siteName: 'Your Company', domain: 'localhost' },
  siteUrl: 'http://localhost:3000',
  pinned: [],
  privacy: { fingerprintAfterConsent: false },
  company: {
    legalName: '',
    address: [],
    country: '',
    email: '',
    phone: '',
    representatives: [],
    register: '',
    vatId: '',
    contentResponsible: null,
    dataProtectionOfficer: null,
    euRepresentative: null,
    supervisoryAuthority: { name: '', url: '' },
  },
  services: {
    hosting: { name: '', country: '', safeguard: null },
    database: null,
    mail: null,
    posthog: null,
    traces: null,
  },
  retention: { serverLogDays: null, backupDays: null },
  accounts: { minimumAge: 16 },
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
