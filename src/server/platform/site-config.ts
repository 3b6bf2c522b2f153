import { readFile } from 'node:fs/promises';
import { findPackageJSON } from 'node:module';
import path from 'node:path';
import { LANGUAGES, type Language, NAMESPACES, type Texts } from '#common/languages.ts';
import { DEFAULT_SITE_CONFIG, fillBrand, type SiteConfig } from '#common/site-config.ts';
import { parseSiteConfig } from '#common/site-config-parse.ts';

/**
 * The project's folder, where package.json is, found from this module's own file: under src/server
 * when the server runs from its source, in dist/server once built (decision 260).
 */
export const ROOT = path.dirname(findPackageJSON(import.meta.url) as string);
export const LOCALES_DIR = path.join(ROOT, 'public/locales');

/**
 * The address a server listening on `host` and `port` is reached at from the machine it runs on:
 * the public address when config.json names none (links in mail must reach this server, whatever
 * port it was given).
 */
export function ownAddress(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/**
 * The company's configuration from public/locales/config.json, over the defaults (see
 * parseSiteConfig). Without a `siteUrl` there, or with the one the project ships
 * (http://localhost:3000, a placeholder for the build's canonical links), the public address is
 * `defaultSiteUrl`: a server started on another port mails links to itself, not to port 3000.
 */
export async function loadSiteConfig(options: { defaultSiteUrl?: string; file?: string } = {}): Promise<SiteConfig> {
  const file = JSON.parse(await readFile(options.file ?? path.join(LOCALES_DIR, 'config.json'), 'utf8'));
  const shipped = isShippedSiteUrl(file?.siteUrl);
  return parseSiteConfig(shipped ? { ...file, siteUrl: undefined } : file, options.defaultSiteUrl);
}

/** Whether a configured siteUrl is the placeholder the project ships, i.e. left at its default. */
export const isShippedSiteUrl = (siteUrl: unknown) =>
  typeof siteUrl === 'string' && siteUrl.replace(/\/+$/, '') === DEFAULT_SITE_CONFIG.siteUrl;

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

/** A text of one namespace by its dotted key; a missing one is a build mistake, said loudly. */
export function textAt(texts: Texts, language: Language, ns: string, key: string): string {
  let node: unknown = texts[language]?.[ns];
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`No text ${ns}:${key} in ${language}`);
  return node;
}
