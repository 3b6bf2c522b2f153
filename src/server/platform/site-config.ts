import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LANGUAGES, type Language, NAMESPACES } from '#common/languages.ts';
import { DEFAULT_SITE_CONFIG, fillBrand, type SiteConfig } from '#common/site-config.ts';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const LOCALES_DIR = path.join(ROOT, 'public/locales');

const SUBJECT_ID = /^[a-z][a-z0-9-]{0,31}$/;
const MAX_SUBJECTS = 12;

/** The operator's configuration from public/locales/config.json, over the defaults. */
export async function readSiteConfig(): Promise<SiteConfig> {
  const file = JSON.parse(await readFile(path.join(LOCALES_DIR, 'config.json'), 'utf8')) as Partial<SiteConfig>;
  const fingerprintAfterConsent = file.privacy?.fingerprintAfterConsent ?? false;
  // A typo such as "yes" must not silently leave fingerprinting on.
  if (typeof fingerprintAfterConsent !== 'boolean') {
    throw new Error('config.json: privacy.fingerprintAfterConsent must be true or false');
  }
  const subjects = file.contact?.subjects ?? DEFAULT_SITE_CONFIG.contact.subjects;
  // Subject ids become keys of the texts and values of a form field: short, plain, and no repeats.
  if (
    !Array.isArray(subjects) ||
    subjects.length < 1 ||
    subjects.length > MAX_SUBJECTS ||
    !subjects.every((id) => typeof id === 'string' && SUBJECT_ID.test(id)) ||
    new Set(subjects).size !== subjects.length
  ) {
    throw new Error(
      `config.json: contact.subjects must list 1 to ${MAX_SUBJECTS} different ids of lower-case letters, digits and dashes`,
    );
  }
  return {
    brand: { ...DEFAULT_SITE_CONFIG.brand, ...file.brand },
    siteUrl: (file.siteUrl ?? DEFAULT_SITE_CONFIG.siteUrl).replace(/\/+$/, ''),
    privacy: { fingerprintAfterConsent },
    contact: { subjects: [...subjects] },
  };
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
