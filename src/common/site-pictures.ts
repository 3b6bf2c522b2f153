import type { Language } from './languages.ts';
import type { PageId } from './routes.ts';
import type { SiteConfig } from './site-config.ts';

/**
 * The pictures of the site's pages (decision 204): a hero picture for home and one for about,
 * uploaded in the console by editors and admins, served as AVIF and WebP at the widths the layout
 * needs with a JPEG to fall back on, each with its text per language.
 */
export const PICTURE_SLOTS = ['home', 'about'] as const;
export type PictureSlot = (typeof PICTURE_SLOTS)[number];

export const PICTURES_API = {
  /** GET, for anyone: the pictures in force, for the app going to a page whose picture its own page did not carry. */
  shown: '/api/pictures',
  /** GET: the pictures in force. */
  pictures: '/api/console/pictures',
  /** PUT with the image itself as the body (JPEG, PNG or WebP, at most 10 MB); DELETE with `{}`. */
  picture: (slot: PictureSlot) => `/api/console/pictures/${slot}`,
  /** PUT `{ alt: { en: '…', th: '…' } }`: the picture's text in each language. */
  alt: (slot: PictureSlot) => `/api/console/pictures/${slot}/alt`,
} as const;

/** Every route under it takes an image or JSON (the guard exemption of the pictures). */
export const PICTURES_PREFIX = '/api/console/pictures/*';

export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** Largest upload the console takes, in bytes: a photo straight from a phone. */
export const MAX_PICTURE_BYTES = 10 * 1024 * 1024;
/** Narrowest picture taken, in pixels: the width the JPEG fallback is served at. */
export const MIN_PICTURE_WIDTH = 960;
/** The widths the pictures are served at (never wider than the original): a phone, a tablet or half a desktop, a wide screen. */
export const PICTURE_WIDTHS = [480, 960, 1440] as const;
/** Longest text of a picture in one language. */
export const MAX_PICTURE_ALT = 300;

/** A picture as the pages show it (`SiteConfig.appearance.pictures`). */
export interface Picture {
  /** Best first: the browser takes the first type it knows. `srcset` lists each width (`… 960w`). */
  sources: { type: 'image/avif' | 'image/webp'; srcset: string }[];
  /** The JPEG for browsers that know neither. */
  src: string;
  /** The JPEG's size: the picture's proportions, so the page keeps its room before it arrives. */
  width: number;
  height: number;
  alt: Partial<Record<Language, string>>;
}

export type SitePictures = Partial<Record<PictureSlot, Picture>>;

/** What the console reads and each change answers: the pictures in force. */
export interface PicturesAnswer {
  pictures: SitePictures;
}

/** The picture a page shows: its own slot, for the pages that have one. */
export function pictureShownOn(page: PageId): PictureSlot | undefined {
  return PICTURE_SLOTS.find((slot) => slot === page);
}

/**
 * The configuration as a page carries it (decision 251): with the picture that page shows and no
 * other, for a picture with its files and six texts costs every page's first round trip some 200
 * bytes. The app asks for the others when it goes to their page. `null`: a page that shows none
 * (the console's).
 */
export function configForPage(site: SiteConfig, page: PageId | null): SiteConfig {
  if (!site.appearance?.pictures) return site;
  const { pictures, ...appearance } = site.appearance;
  const slot = page === null ? undefined : pictureShownOn(page);
  const own = slot && pictures[slot];
  return { ...site, appearance: own ? { ...appearance, pictures: { [slot]: own } } : appearance };
}

/** Every configuration a page may carry: what the security policy allows of the configuration script. */
export function pageConfigs(site: SiteConfig): SiteConfig[] {
  return [configForPage(site, null), ...PICTURE_SLOTS.map((slot) => configForPage(site, slot))];
}
