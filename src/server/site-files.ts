import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LANGUAGES, type Language, NAMESPACES } from '../common/languages.ts';
import { fillBrand, type SiteConfig } from '../common/site-config.ts';
import { parseSiteConfig } from '../common/site-config-parse.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const LOCALES_DIR = path.join(ROOT, 'public/locales');

/** The operator's configuration from public/locales/config.json, over the defaults (see parseSiteConfig). */
export async function readSiteConfig(): Promise<SiteConfig> {
  return parseSiteConfig(JSON.parse(await readFile(path.join(LOCALES_DIR, 'config.json'), 'utf8')));
}

export type Texts = Record<string, Record<string, Record<string, unknown>>>;

/** Every namespace of every language, as written (brand placeholders unfilled unless a brand is given). */
export async function readTexts(
  brand?: SiteConfig['brand'],
  languages: readonly Language[] = LANGUAGES,
): Promise<Texts> {
  const texts: Texts = {};
  for (const language of languages) {
    texts[language] = {};
    for (const ns of NAMESPACES) {
      const parsed = JSON.parse(await readFile(path.join(LOCALES_DIR, language, `${ns}.json`), 'utf8'));
      texts[language][ns] = brand ? fillBrand(parsed, brand) : parsed;
    }
  }
  return texts;
}
