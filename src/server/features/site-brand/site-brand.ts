import { isDeepStrictEqual } from 'node:util';
import type { PageId } from '#common/routes.ts';
import { CONSOLE_SETTABLE, type SiteConfig } from '#common/site-config.ts';
import { parseSiteConfig } from '#common/site-config-parse.ts';
import { PICTURE_SLOTS, type SitePictures } from '#common/site-pictures.ts';
import { pictureFiles, picturesInForce, SITE_PICTURES_CHANNEL } from '#server/features/site-pictures/index.ts';
import type { Database } from '#server/platform/db/database.ts';
import { type KeptCurrent, keptCurrent } from '#server/platform/db/kept-current.ts';
import { log } from '#server/platform/log.ts';
import type { MailLogo } from '#server/platform/mail/mail-text.ts';
import type { LogoFile, PagePublisher, PublishedTexts } from '#server/site/live-pages.ts';
import { type MailLogoImage, mailLogoFrom } from '#server/site/mail-logo.ts';
import { type BrandRow, readBrand, SITE_BRAND_CHANNEL } from './brand-queries.ts';
import { checkLogo, logoPath } from './logo.ts';

type Section = Record<string, unknown>;

/** config.json's parts with the console's over them, section by section (the hosting service field by field). */
export function mergeSettings(base: Section, settings: Section): Section {
  const merged: Section = { ...base };
  for (const part of CONSOLE_SETTABLE) {
    const set = settings[part] as Section | undefined;
    if (!set) continue;
    const from = (base[part] ?? {}) as Section;
    merged[part] =
      part === 'services'
        ? { ...from, hosting: { ...(from.hosting as Section), ...(set.hosting as Section) } }
        : { ...from, ...set };
  }
  return merged;
}

/** The configuration a starting one becomes with the console's settings, logo and the pages' pictures. */
export function brandedConfig(
  start: SiteConfig,
  row: BrandRow,
  pictures?: SitePictures,
): { config: SiteConfig; logo: LogoFile | null } {
  const { appearance, ...rest } = start;
  const file = mergeSettings(
    { ...rest, ...(appearance ? { appearance: { accent: appearance.accent } } : {}) },
    row.settings,
  );
  const parsed = parseSiteConfig(file, start.siteUrl);
  const checked = row.logo && row.logoType ? checkLogo(row.logoType, row.logo) : null;
  const logo =
    row.logo && checked && !('problem' in checked)
      ? { ...checked, path: logoPath(checked.type, row.logo), body: row.logo }
      : null;
  const accent = parsed.appearance?.accent ?? null;
  const config: SiteConfig = { ...parsed, siteUrl: start.siteUrl };
  delete config.appearance;
  if (accent || logo || pictures) {
    config.appearance = {
      accent,
      logo: logo && { path: logo.path, width: logo.width, height: logo.height, alt: row.logoAlt },
      ...(pictures ? { pictures } : {}),
    };
  }
  return { config, logo };
}

/**
 * The pages a change of configuration shows on alone: a picture's own page when only pictures
 * changed (no other page carries them: decision 251), none when anything else changed, since the
 * brand shows on every page.
 */
export function pagesShowingAlone(before: SiteConfig, after: SiteConfig): PageId[] {
  const { appearance: was, ...restBefore } = before;
  const { appearance: is, ...restAfter } = after;
  const brand = (config: Omit<SiteConfig, 'appearance'>, look: SiteConfig['appearance']) => [
    config,
    look?.accent ?? null,
    look?.logo ?? null,
  ];
  if (!isDeepStrictEqual(brand(restBefore, was), brand(restAfter, is))) return [];
  return PICTURE_SLOTS.filter((slot) => !isDeepStrictEqual(was?.pictures?.[slot], is?.pictures?.[slot]));
}

/**
 * The brand as the console set it over config.json, and the pages' pictures, kept current on this
 * instance: `refresh` reads the database and, when the configuration in force changes, writes it into `site` (the object
 * every feature and the renderer read) and has the publisher render the whole site again.
 */
export class SiteBrand {
  /** The configuration in force; changed in place. */
  readonly site: SiteConfig;
  /** What config.json (and the environment) made of it at start. */
  readonly initial: SiteConfig;
  private readonly db: Database;
  private readonly texts: PublishedTexts;
  private readonly publisher: PagePublisher | undefined;
  private readonly current: KeptCurrent;
  /** The logo in force, and the PNG mail shows of it, made on the first mail after it changed. */
  private logo: LogoFile | null = null;
  private mailImage: { path: string; image: Promise<MailLogoImage> } | undefined;

  constructor(options: { db: Database; site: SiteConfig; texts: PublishedTexts; publisher?: PagePublisher }) {
    this.db = options.db;
    this.site = options.site;
    this.initial = structuredClone(options.site);
    this.texts = options.texts;
    this.publisher = options.publisher;
    this.current = keptCurrent({
      db: options.db,
      channels: [SITE_BRAND_CHANNEL, SITE_PICTURES_CHANNEL],
      apply: () => this.apply(),
      failure: 'The brand could not be applied',
    });
  }

  /** Resolves once this instance serves the brand the database holds now. */
  refresh(): Promise<void> {
    return this.current.refresh();
  }

  /** The logo as mail shows it, with its text in each language; undefined without a logo. */
  async mailLogo(): Promise<MailLogo | undefined> {
    const logo = this.logo;
    const alt = this.site.appearance?.logo?.alt;
    if (!logo || !alt) return undefined;
    if (this.mailImage?.path !== logo.path) this.mailImage = { path: logo.path, image: mailLogoFrom(logo) };
    return { ...(await this.mailImage.image), alt };
  }

  /** Serves the brand and pictures in force, and again whenever any instance changes them. */
  start(): Promise<() => Promise<void>> {
    return this.current.start();
  }

  private async apply(): Promise<void> {
    const [row, pictures] = await Promise.all([readBrand(this.db), picturesInForce(this.db)]);
    const { config, logo } = brandedConfig(this.initial, row, pictures);
    this.logo = logo;
    if (JSON.stringify(config) === JSON.stringify(this.site)) return;
    // The pictures' bytes only when the site is rendered again (not on every read of the brand).
    const assets = this.publisher && pictures ? await pictureFiles(this.db) : [];
    const only = pagesShowingAlone(this.site, config);
    for (const key of Object.keys(this.site) as (keyof SiteConfig)[]) delete this.site[key];
    Object.assign(this.site, config);
    await this.publisher?.rebuild(this.texts, logo, assets, only);
    log.info('The brand set in the console is served');
  }
}
