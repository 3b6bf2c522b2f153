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

    it.each(LANGUAGES)('has the same keys in %s as in English, each a non-empty text', (language) => {
      const texts = new Map(flatten(read(language, ns)));
      expect([...texts.keys()].sort()).toEqual([...reference.keys()].sort());
      for (const [key, value] of texts) {
        expect(typeof value, `${language}/${ns}:${key}`).toBe('string');
        expect((value as string).trim(), `${language}/${ns}:${key}`).not.toBe('');
      }
    });

    it.each(LANGUAGES)('keeps every placeholder of the English text in %s', (language) => {
      for (const [key, value] of flatten(read(language, ns))) {
        expect(placeholders(value as string), `${language}/${ns}:${key}`).toEqual(
          placeholders(reference.get(key) as string),
        );
      }
    });
  });
});
