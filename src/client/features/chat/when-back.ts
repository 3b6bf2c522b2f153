/**
 * When the team is back and how soon it answers, in the visitor's language and in the time zone
 * of their browser (Intl alone: no time zone data ships with the panel).
 */

export type BackKey = 'backToday' | 'backTomorrow' | 'backOn' | 'backOnDate';

/** Days within which the weekday's name is clear enough ("Monday"); later ones get a date. */
const BY_WEEKDAY_DAYS = 6;
const DAY_MS = 24 * 60 * 60 * 1000;

const dayNumber = (instant: Date, timeZone?: string) => {
  // en-CA writes dates as YYYY-MM-DD: the day as the visitor's calendar counts it.
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
};

/** Which sentence says when the team is back, with the day and time to put in it. */
export function whenBack(
  nextOpen: string,
  now: Date,
  language: string,
  timeZone?: string,
): { key: BackKey; day: string; time: string } {
  const at = new Date(nextOpen);
  const time = new Intl.DateTimeFormat(language, { timeZone, hour: '2-digit', minute: '2-digit' }).format(at);
  const days = dayNumber(at, timeZone) - dayNumber(now, timeZone);
  if (days <= 0) return { key: 'backToday', day: '', time };
  if (days === 1) return { key: 'backTomorrow', day: '', time };
  if (days <= BY_WEEKDAY_DAYS) {
    return { key: 'backOn', day: new Intl.DateTimeFormat(language, { timeZone, weekday: 'long' }).format(at), time };
  }
  const date = new Intl.DateTimeFormat(language, { timeZone, weekday: 'long', day: 'numeric', month: 'long' });
  return { key: 'backOnDate', day: date.format(at), time };
}

/** The time the team closes today, for "until 17:00". */
export const timeOf = (iso: string, language: string, timeZone?: string) =>
  new Intl.DateTimeFormat(language, { timeZone, hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

/** A typical reply time as a duration of whole minutes or hours; null under a minute. */
export function replyDuration(seconds: number, language: string): string | null {
  if (seconds < 60) return null;
  const minutes = Math.round(seconds / 60);
  const [value, unit] = minutes < 60 ? [minutes, 'minute'] : [Math.round(minutes / 60), 'hour'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}
