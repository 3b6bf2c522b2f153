import { useTranslation } from 'react-i18next';
import { languageNameFormat } from '#common/analytics-format.ts';

/** Dates and numbers as the console's language writes them (Thai with its own era). */
export function useFormat() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const day = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  const number = new Intl.NumberFormat(language);
  return {
    dateTime: (iso: string) => dateTime.format(new Date(iso)),
    /** A calendar day (YYYY-MM-DD, UTC), as the analytics count them. */
    day: (value: string) => day.format(new Date(`${value}T00:00:00Z`)),
    number: (value: number) => number.format(value),
  };
}

/**
 * A site language as the console names it: in the console's language with the language's own name
 * beside it ("Thai (ไทย)"), or its own name alone when the two are the same.
 */
export function useLanguageName() {
  const { i18n } = useTranslation();
  return languageNameFormat(i18n.language);
}
