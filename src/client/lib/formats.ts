import type { Language } from '#common/languages.ts';

const DAYS_PER_YEAR = 365;

/**
 * A date such as 2026-11-23 the way the language writes it, in the calendar it uses (Thai counts
 * years in the Buddhist era). The date is read and written in UTC, so that it is the same day for
 * the build, the server and every visitor.
 */
export function formatDate(language: Language, isoDate: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );
}

/** A country's name in the language, from its ISO code; the code itself when Intl does not know it. */
export function countryName(language: Language, code: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region', fallback: 'code' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/**
 * A period of days as a noun phrase in the language ("2 years", "395 days"): whole years as years,
 * otherwise days, pluralised by Intl. It stands where the sentence takes the plain form of the noun;
 * sentences that decline the count (German "nach 7 Tagen") use i18next plurals with `count` instead.
 */
export function formatDays(language: Language, days: number): string {
  const years = days / DAYS_PER_YEAR;
  const [value, unit] = Number.isInteger(years) ? [years, 'year'] : [days, 'day'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}
