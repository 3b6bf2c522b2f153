import { useTranslation } from 'react-i18next';

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

/** Today and the day `days` before, as YYYY-MM-DD in UTC. */
export function lastDays(days: number): { from: string; to: string } {
  const to = new Date();
  const from = new Date(to.getTime() - (days - 1) * 24 * 60 * 60 * 1000);
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
}
