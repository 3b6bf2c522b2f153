// How the analytics numbers are written, the same in the console and in the report mail.
import { isLanguage, LANGUAGE_NAMES } from './languages.ts';

/** The headline numbers, in the order the page and the mail show them. */
export const HEADLINE_MEASURES = [
  'visitors',
  'visits',
  'views',
  'viewsPerVisit',
  'bounceRate',
  'visitSeconds',
] as const;
export type HeadlineMeasure = (typeof HEADLINE_MEASURES)[number];

/** The change from `previous` to `current` as a fraction (0.25 for a quarter more); null when there is nothing to compare with. */
export function changeOf(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return (current - previous) / previous;
}

/** A length of time as "1 min 18 s" in `language` (units from Intl). */
export function durationFormat(language: string): (seconds: number) => string {
  const minutes = new Intl.NumberFormat(language, { style: 'unit', unit: 'minute', unitDisplay: 'short' });
  const seconds = new Intl.NumberFormat(language, { style: 'unit', unit: 'second', unitDisplay: 'short' });
  return (value) => {
    const total = Math.round(value);
    const m = Math.floor(total / 60);
    return m > 0 ? `${minutes.format(m)} ${seconds.format(total % 60)}` : seconds.format(total);
  };
}

/** A headline number and a change between periods, written in `language`; a dash for a number there is none of. */
export function headlineFormat(language: string) {
  const whole = new Intl.NumberFormat(language);
  const decimal = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 });
  const change = new Intl.NumberFormat(language, {
    style: 'percent',
    maximumFractionDigits: 0,
    signDisplay: 'exceptZero',
  });
  const duration = durationFormat(language);
  return {
    measure(name: HeadlineMeasure, value: number | null): string {
      if (value === null) return '–';
      if (name === 'viewsPerVisit') return decimal.format(value);
      if (name === 'bounceRate') return percent.format(value);
      if (name === 'visitSeconds') return duration(value);
      return whole.format(value);
    },
    change: (fraction: number) => change.format(fraction),
  };
}

/**
 * A language of the site as a reader of `language` names it, with its own name beside it: "Thai
 * (ไทย)" for an English reader, "ไทย" for a Thai one. Other codes stay as they are.
 */
export function languageNameFormat(language: string): (code: string) => string {
  const names = new Intl.DisplayNames([language], { type: 'language' });
  return (code) => {
    if (!isLanguage(code)) return code;
    const native = LANGUAGE_NAMES[code];
    const local = names.of(code);
    return !local || local === native || code === language ? native : `${local} (${native})`;
  };
}
