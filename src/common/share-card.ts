import type { Language } from './languages.ts';

/** What a page's share image shows; the build renders one per distinct card (src/server/site/share-image.ts). */
export interface ShareCard {
  language: Language;
  title: string;
  siteName: string;
  domain: string;
}

/** A rendered share image: its address on the site and its size in pixels. */
export interface ShareImage {
  path: string;
  width: number;
  height: number;
}
