/** The languages the site is offered in, in the order the switcher shows them. */
export const LANGUAGES = ['en', 'it', 'th', 'fr', 'de', 'nl'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language's own name, shown in the switcher whatever the page language is. */
/**
 * The country each language suggests where one must be chosen (the phone number's): a guess the
 * visitor can change, not a claim that the language belongs to it.
 */
export const LANGUAGE_COUNTRY = {
  en: 'GB',
  it: 'IT',
  th: 'TH',
  fr: 'FR',
  de: 'DE',
  nl: 'NL',
} as const satisfies Record<Language, string>;

export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  it: 'Italiano',
  th: 'ไทย',
  fr: 'Français',
  de: 'Deutsch',
  nl: 'Nederlands',
};

/** Written right to left. None is offered today; a language added later gets its direction from here. */
const RTL_LANGUAGES = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'ckb', 'dv']);

export type Direction = 'ltr' | 'rtl';

export function directionOf(language: string): Direction {
  return RTL_LANGUAGES.has(language.toLowerCase().split('-')[0] ?? '') ? 'rtl' : 'ltr';
}

export function isLanguage(value: unknown, languages: readonly string[] = LANGUAGES): value is Language {
  return typeof value === 'string' && languages.includes(value);
}

export const NAMESPACES = [
  'common',
  'home',
  'about',
  'contact',
  'login',
  'privacy',
  'terms',
  'cookie',
  'register',
  'validation',
  'errors',
  'chat',
  'legal',
  'console',
  'settings',
] as const;
export type Namespace = (typeof NAMESPACES)[number];
export const DEFAULT_NAMESPACE: Namespace = 'common';

/**
 * The first supported language among detected codes (a stored choice first, then the browser's
 * languages), matching on the primary subtag so that `fr-CA` gives `fr`; else the default.
 */
export function bestLanguage(codes: readonly string[], languages: readonly Language[] = LANGUAGES): Language {
  for (const code of codes) {
    const primary = code.toLowerCase().split(/[-_]/)[0];
    if (isLanguage(primary, languages)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

/** Every namespace of every language, as the translation files hold them: language → namespace → texts. */
export type Texts = Record<string, Record<string, Record<string, unknown>>>;
