import type { MailReport } from '#common/analytics-mail.ts';
import { instantOf, wallClock } from '#server/features/chat/index.ts';
import { type Period, periodOf, type Span } from './periods.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** A report goes out from this hour of its day, site time: late events are in, and it waits at the top of the inbox. */
export const REPORT_HOUR = 6;

const dayOf = (wall: number) => new Date(wall).toISOString().slice(0, 10);

/** A report that is due: which admins' choice it answers, and the period it covers. */
export interface DueReport {
  kind: Exclude<MailReport, 'none'>;
  period: Period;
}

/**
 * The report of `kind` due at `now` in `timeZone` (decision 210), or null. The weekly one covers
 * Monday to Sunday and is due on the Monday after, the monthly one covers a calendar month and is
 * due on the 1st, each from REPORT_HOUR; the day after stays due too, so a report whose day found
 * no instance running is still sent. Days are wall-clock days: a week over a daylight-saving
 * change has 167 or 169 hours. It is compared with as many days just before (the dashboard's rule
 * for a range of days), so February's 28 days are set against the 28 before them.
 */
export function dueReport(kind: DueReport['kind'], now: Date, timeZone: string): DueReport | null {
  const wall = wallClock(now.getTime(), timeZone);
  const today = Math.floor(wall / DAY) * DAY;
  const date = new Date(today);
  // Which day of the report's two is today: its own day (0), the day after (1), or neither.
  const late = kind === 'weekly' ? (date.getUTCDay() + 6) % 7 : date.getUTCDate() - 1;
  if (late > 1 || (late === 0 && wall - today < REPORT_HOUR * HOUR)) return null;
  const dueDay = today - late * DAY;
  const lastDay = dueDay - DAY;
  const firstDay =
    kind === 'weekly'
      ? dueDay - 7 * DAY
      : Date.UTC(new Date(lastDay).getUTCFullYear(), new Date(lastDay).getUTCMonth(), 1);
  return { kind, period: periodOf({ from: dayOf(firstDay), to: dayOf(lastDay) }, timeZone, now) };
}

/** A wall-clock hour of the site: its key (YYYY-MM-DDTHH, as the dashboard's hourly buckets), its day and its instants. */
export interface Hour extends Span {
  key: string;
}

/** The wall-clock hour that begins at `wallStart`, cut at `now` while it runs. */
function hourAt(wallStart: number, timeZone: string, now?: Date): Hour {
  const start = instantOf(wallStart, timeZone);
  const end = Math.min(instantOf(wallStart + HOUR, timeZone), now?.getTime() ?? Number.POSITIVE_INFINITY);
  const day = dayOf(wallStart);
  return {
    key: new Date(wallStart).toISOString().slice(0, 13),
    from: day,
    to: day,
    start: new Date(start),
    end: new Date(Math.max(start, end)),
  };
}

/** The hours an alert looks at: the one that just ended (its last minutes may have crossed the line) and the one under way. */
export function alertHours(now: Date, timeZone: string): Hour[] {
  const current = Math.floor(wallClock(now.getTime(), timeZone) / HOUR) * HOUR;
  return [hourAt(current - HOUR, timeZone, now), hourAt(current, timeZone, now)];
}

/** Days back the usual level of an hour is read from. */
export const USUAL_DAYS = 7;
/** The usual level is never taken below this many visits an hour, so a quiet site is not alerted for a handful. */
export const USUAL_FLOOR = 10;

/** The same wall-clock hour on each of the USUAL_DAYS days before `hour`. */
export function sameHourBefore(hour: Hour, timeZone: string): Hour[] {
  const wallStart = Date.parse(`${hour.key}:00:00Z`);
  return Array.from({ length: USUAL_DAYS }, (_, i) => hourAt(wallStart - (i + 1) * DAY, timeZone));
}

/**
 * The alert rule (decision 210): an hour is a spike when its visits exceed `multiple` times the
 * usual level, the median of the same hour's visits on the seven days before (the daily rhythm
 * counts, one odd day does not), never taken below USUAL_FLOOR.
 */
export function isSpike(visits: number, sameHourVisits: number[], multiple: number): boolean {
  return visits > multiple * usualLevel(sameHourVisits);
}

export function usualLevel(sameHourVisits: number[]): number {
  const sorted = [...sameHourVisits].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median =
    sorted.length === 0
      ? 0
      : sorted.length % 2
        ? (sorted[Math.floor(middle)] ?? 0)
        : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return Math.max(USUAL_FLOOR, median);
}
