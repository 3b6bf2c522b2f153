import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, NAMESPACES } from './languages.ts';

const LOCALES = path.resolve(import.meta.dirname, '../../public/locales');

function read(language: string, ns: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(LOCALES, language, `${ns}.json`), 'utf8'));
}

/** Every text as [key path, value]. */
function flatten(texts: unknown, prefix = ''): [string, unknown][] {
  if (texts === null || typeof texts !== 'object') return [[prefix, texts]];
  return Object.entries(texts).flatMap(([key, value]) => flatten(value, prefix ? `${prefix}.${key}` : key));
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
/** A key without its plural suffix: `retry.minutes_one` → `retry.minutes`. */
const baseKey = (key: string) => key.replace(PLURAL_SUFFIX, '');

/**
 * The plural forms a language needs for the counts a text can show: every form Intl.PluralRules
 * gives to a whole number up to 100,000. French and Italian `many` (a million and up) is never
 * reached, and i18next falls back to `_other` for it.
 */
function pluralForms(language: string): string[] {
  const rules = new Intl.PluralRules(language);
  const forms = new Set<string>();
  for (let n = 0; n <= 100_000; n += n < 1000 ? 1 : 997) forms.add(rules.select(n));
  return [...forms].sort();
}

/** Keys as a language writes them, with each plural group reduced to its base key. */
function keyGroups(texts: Map<string, unknown>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const key of texts.keys()) {
    const form = PLURAL_SUFFIX.exec(key)?.[1];
    const base = baseKey(key);
    groups.set(base, [...(groups.get(base) ?? []), ...(form ? [form] : [])]);
  }
  return groups;
}

describe('translations', () => {
  it('exist for exactly the offered languages and namespaces', () => {
    expect(
      readdirSync(LOCALES)
        .filter((name) => !name.endsWith('.json'))
        .sort(),
    ).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) {
      expect(readdirSync(path.join(LOCALES, language)).sort()).toEqual(NAMESPACES.map((ns) => `${ns}.json`).sort());
    }
  });

  describe.each(NAMESPACES)('namespace %s', (ns) => {
    const reference = new Map(flatten(read('en', ns)));
    const referenceGroups = keyGroups(reference);
    /** The English text a key of another language corresponds to: for a plural form, English `_other`. */
    const englishFor = (key: string) =>
      reference.get(key) ?? reference.get(`${baseKey(key)}_other`) ?? reference.get(baseKey(key));

    it.each(LANGUAGES)('has the same keys in %s as in English, each a non-empty text', (language) => {
      const texts = new Map(flatten(read(language, ns)));
      const groups = keyGroups(texts);
      expect([...groups.keys()].sort()).toEqual([...referenceGroups.keys()].sort());
      for (const [base, forms] of groups) {
        // A counted text has exactly the plural forms of its language; any other text has none.
        const counted = (referenceGroups.get(base) ?? []).length > 0;
        expect(forms.sort(), `${language}/${ns}:${base}`).toEqual(counted ? pluralForms(language) : []);
      }
      for (const [key, value] of texts) {
        expect(typeof value, `${language}/${ns}:${key}`).toBe('string');
        expect((value as string).trim(), `${language}/${ns}:${key}`).not.toBe('');
      }
    });

    it.each(LANGUAGES)('keeps every placeholder of the English text in %s', (language) => {
      for (const [key, value] of flatten(read(language, ns))) {
        expect(placeholders(value as string), `${language}/${ns}:${key}`).toEqual(
          placeholders(englishFor(key) as string),
        );
      }
    });

    it.each(LANGUAGES)("writes apostrophes one way in %s (’, never ')", (language) => {
      for (const [key, value] of flatten(read(language, ns))) {
        expect(value as string, `${language}/${ns}:${key}`).not.toContain("'");
      }
    });
  });

  it('counts with i18next plurals: no number is spelled into a text by a variable of its own', () => {
    // `{{count}}` picks the plural form; `{{minutes}} minutes` reads right only for some values.
    const offenders = LANGUAGES.flatMap((language) =>
      NAMESPACES.flatMap((ns) =>
        flatten(read(language, ns))
          .filter(([_key, value]) => /\{\{\s*(minutes|days|hours|seconds)\s*\}\}/.test(value as string))
          .map(([key]) => `${language}/${ns}:${key}`),
      ),
    );
    expect(offenders).toEqual([]);
  });
});
