import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LANGUAGES, type Language, NAMESPACES, type Texts } from '#common/languages.ts';
import { DEFAULT_SITE_CONFIG, fillBrand, type SiteConfig } from '#common/site-config.ts';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const LOCALES_DIR = path.join(ROOT, 'public/locales');

/**
 * The address a server listening on `host` and `port` is reached at from the machine it runs on:
 * the public address when the operator names none (links in mail must reach this server, whatever
 * port it was given).
 */
export function ownAddress(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/**
 * The operator's configuration from public/locales/config.json, over the defaults. Without a
 * `siteUrl` there, the public address is `defaultSiteUrl` (the server passes its own address).
 */
export async function readSiteConfig(options: { defaultSiteUrl?: string; file?: string } = {}): Promise<SiteConfig> {
  const file = JSON.parse(
    await readFile(options.file ?? path.join(LOCALES_DIR, 'config.json'), 'utf8'),
  ) as Partial<SiteConfig>;
  const fingerprintAfterConsent = file.privacy?.fingerprintAfterConsent ?? false;
  // A typo such as "yes" must not silently leave fingerprinting on.
  if (typeof fingerprintAfterConsent !== 'boolean') {
    throw new Error('config.json: privacy.fingerprintAfterConsent must be true or false');
  }
  return {
    brand: { ...DEFAULT_SITE_CONFIG.brand, ...file.brand },
    siteUrl: (file.siteUrl ?? options.defaultSiteUrl ?? DEFAULT_SITE_CONFIG.siteUrl).replace(/\/+$/, ''),
    privacy: { fingerprintAfterConsent },
  };
}

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
