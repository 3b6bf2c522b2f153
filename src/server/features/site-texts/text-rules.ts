import type { ErrorCode } from '#common/error-codes.ts';
import type { Language } from '#common/languages.ts';
import type { TextStatus } from '#common/site-texts.ts';

// What a translated text must keep of the English one, and the status of a translation. i18next
// reads `{{name}}` placeholders, `<1>…</1>` or `<strong>…</strong>` tags (react-i18next's Trans),
// and plural forms as keys with a suffix (`items_one`, `items_other`) chosen by the language's
// plural rules.

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;
const TAG = /<\/?([A-Za-z0-9]+)\s*\/?>/g;
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** The `{{name}}` placeholders of a text, sorted, each once. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1] as string))].sort();
}

/** The tags of a text as written (`<1>`, `</1>`, `<br/>`), sorted, with repeats: each must be kept. */
function tagsOf(text: string): string[] {
  return [...text.matchAll(TAG)].map((match) => match[0].replace(/\s+/g, '')).sort();
}

/** The plural forms a language uses (Intl's plural rules, which i18next follows). */
export function pluralForms(language: string): string[] {
  return new Intl.PluralRules(language).resolvedOptions().pluralCategories;
}

/** A key's plural form, or null for a key that is not one of a plural's forms. */
export function pluralFormOf(key: string): string | null {
  return PLURAL_SUFFIX.exec(key)?.[1] ?? null;
}

/**
 * Why `value` cannot stand for `english` at `key` in `language`, or null when it can. A plural
 * form other than `other` may leave `{{count}}` out ("one message"); every other placeholder of
 * the English text must be there, and no other.
 */
export function textProblem(key: string, language: Language, value: string, english: string): ErrorCode | null {
  const form = pluralFormOf(key);
  if (form && !pluralForms(language).includes(form)) return 'TEXT_PLURAL_FORM';
  const wanted = placeholdersOf(english);
  const given = placeholdersOf(value);
  const optional = form && form !== 'other' ? ['count'] : [];
  const missing = wanted.filter((name) => !given.includes(name) && !optional.includes(name));
  const extra = given.filter((name) => !wanted.includes(name) && !(form && name === 'count'));
  if (missing.length > 0 || extra.length > 0) return 'TEXT_PLACEHOLDERS';
  if (tagsOf(value).join() !== tagsOf(english).join()) return 'TEXT_MARKUP';
  return null;
}

/**
 * A text's status: missing when empty; a translation needs review when the English text it was
 * written against (`source`) is not the English text now.
 */
export function textStatus(language: Language, value: string, english: string, source: string): TextStatus {
  if (value.trim() === '') return 'missing';
  if (language !== 'en' && source !== english) return 'review';
  return 'done';
}

/** A text the release ships as a stand-in for the company's own words: `[Who we are, in one sentence.]`. */
export const isPlaceholderText = (text: string) => /^\s*\[[^\]]*\]\s*$/.test(text);
