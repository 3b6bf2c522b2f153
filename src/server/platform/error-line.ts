import { type ErrorDetails, errorText } from '#common/error-texts.ts';
import type { Language, Texts } from '#common/languages.ts';
import type { SiteConfig } from '#common/site-config.ts';
import { fill } from './mail/mail-text.ts';
import { textAt } from './site-config.ts';

/**
 * An error's text as the browser shows it, for a page the server writes itself (a form sent
 * without JavaScript): the numbers it names, in the language's plural form, the brand filled in.
 */
export function errorLine(texts: Texts, site: SiteConfig, language: Language, details: ErrorDetails): string {
  const { key, options } = errorText(details);
  const form = options.count === undefined ? key : `${key}_${new Intl.PluralRules(language).select(options.count)}`;
  const values = Object.fromEntries(Object.entries(options).map(([name, value]) => [name, String(value)]));
  return fill(fill(textAt(texts, language, 'errors', form), site.brand), values);
}
