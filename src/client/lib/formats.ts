import type { Language } from '#common/languages.ts';

const DAYS_PER_YEAR = 365;

/**
 * What Intl formatted, by kind, language and value. The first Intl formatter a page makes costs
 * 15 to 30 ms in Chromium (it loads the number and date data), a long task inside hydration. So a
 * prerendered page carries the strings its render formatted (the boot data's `formatted`, from
 * takeFormatted), the app adopts them before it hydrates (adoptFormatted), and hydration makes no
 * formatter at all; pages rendered later in the browser format for themselves.
 */
const formatted = new Map<string, string>();

function remembered(key: string, format: () => string): string {
  let text = formatted.get(key);
  if (text === undefined) {
    text = format();
    formatted.set(key, text);
  }
  return text;
}

/** Everything formatted since the last call: the prerender takes it for each page it renders. */
export function takeFormatted(): Record<string, string> {
  const taken = Object.fromEntries(formatted);
  formatted.clear();
  return taken;
}

/** The strings a prerendered page was rendered with, before the app hydrates it. */
export function adoptFormatted(texts: Record<string, string> | undefined): void {
  for (const [key, text] of Object.entries(texts ?? {})) if (typeof text === 'string') formatted.set(key, text);
}

/**
 * A date such as 2026-11-23 the way the language writes it, in the calendar it uses (Thai counts
 * years in the Buddhist era). The date is read and written in UTC, so that it is the same day for
 * the build, the server and every visitor.
 */
export function formatDate(language: Language, isoDate: string): string {
  return remembered(`date ${language} ${isoDate}`, () =>
    new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${isoDate}T00:00:00Z`)),
  );
}

/** A country's name in the language, from its ISO code; the code itself when Intl does not know it. */
export function countryName(language: Language, code: string): string {
  return remembered(`region ${language} ${code}`, () => {
    try {
      return new Intl.DisplayNames([language], { type: 'region', fallback: 'code' }).of(code.toUpperCase()) ?? code;
    } catch {
      return code;
    }
  });
}

/** A whole number with the language's digit grouping (5,000; 5.000; 5 000). */
export function formatNumber(language: Language, value: number): string {
  return remembered(`number ${language} ${value}`, () => new Intl.NumberFormat(language).format(value));
}

/**
 * A period of days as a noun phrase in the language ("2 years", "395 days"): whole years as years,
 * otherwise days, pluralised by Intl. It stands where the sentence takes the plain form of the noun;
 * sentences that decline the count (German "nach 7 Tagen") use i18next plurals with `count` instead.
 */
export function formatDays(language: Language, days: number): string {
  const years = days / DAYS_PER_YEAR;
  const [value, unit] = Number.isInteger(years) ? [years, 'year'] : [days, 'day'];
  return remembered(`${unit} ${language} ${value}`, () =>
    new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(value),
  );
}
