import type { Texts } from '#common/languages.ts';
import type { SiteConfig } from '#common/site-config.ts';
import type { SiteBrand } from '#server/features/site-brand/index.ts';
import type { SiteTexts } from '#server/features/site-texts/index.ts';
import type { RateLimiter } from '#server/http/rate-limit.ts';
import type { Database } from '#server/platform/db/database.ts';
import type { Settings } from '#server/platform/env.ts';
import type { Metrics } from '#server/platform/metrics.ts';
import type { PageHtml } from '#server/site/build-files.ts';

/** What every feature is built with; app.ts makes it once. */
export interface Deps {
  db: Database;
  /** Keys the hashes the database keeps and signs visitor identifiers (see platform/secrets.ts). */
  secret: Buffer;
  /** Brand and public address, for mail and the Origin check. */
  site: SiteConfig;
  /** The texts as published (the translation files with the console's edits), for mail in the visitor's language. */
  texts: Texts;
  limiter: RateLimiter;
  settings: Settings;
  /** This instance's metrics: features tell it what to read at each scrape (see platform/metrics.ts). */
  metrics: Metrics;
  /** The built pages, which a form posted without JavaScript is answered with; none without a build. */
  pages?: PageHtml;
  /** The texts as published from the console, and what renders the pages again (decision 200). */
  siteTexts: SiteTexts;
  /** The brand as set in the console over config.json; `site` is its configuration in force (decision 203). */
  siteBrand: SiteBrand;
}
