import type { HoursInterval } from '#common/chat-hours.ts';

export interface OfficeHours {
  timeZone: string;
  /** Monday first. */
  weekly: HoursInterval[][];
  /** YYYY-MM-DD in the time zone. */
  holidays: string[];
}

export interface HoursState {
  open: boolean;
  closesAt: Date | null;
  nextOpen: Date | null;
}

/** How far ahead an opening is looked for: two weeks covers any week with long holidays around it. */
const LOOK_AHEAD_DAYS = 21;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const partsFormat = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `timeZone` at `instant`, as if it were UTC (so that date arithmetic is plain). */
export function wallClock(instant: number, timeZone: string): number {
  let format = partsFormat.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormat.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  return Date.UTC(
    Number(part.year),
    Number(part.month) - 1,
    Number(part.day),
    Number(part.hour),
    Number(part.minute),
    Number(part.second),
  );
}

/**
 * The instant at which the wall clock in `timeZone` shows `wall` (a UTC-based number, as above).
 * Offsets change at most once within a day, so the offsets half a day before and after are the
 * only candidates: a time that exists twice (an autumn change) comes out at its first occurrence,
 * and one that does not exist (skipped by a spring change) at the instant the clocks jump past it
 * plus its distance from the jump, as a clock moved forward shows it.
 */
export function instantOf(wall: number, timeZone: string): number {
  const HALF_DAY = 12 * 60 * MINUTE;
  const before = wall - (wallClock(wall - HALF_DAY, timeZone) - (wall - HALF_DAY));
  const after = wall - (wallClock(wall + HALF_DAY, timeZone) - (wall + HALF_DAY));
  const shown = [before, after].filter((instant) => wallClock(instant, timeZone) === wall);
  return shown.length > 0 ? Math.min(...shown) : before;
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const dayKey = (wallDay: number) => new Date(wallDay).toISOString().slice(0, 10);

/**
 * Whether the team is within its office hours at `now`, until when, or when it is back. Every
 * opening of the days around `now` is turned into instants in the team's time zone, so a change
 * to or from summer time in between moves the answer by that hour as the clocks do.
 */
export function hoursAt(now: Date, hours: OfficeHours): HoursState {
  const at = now.getTime();
  const holidays = new Set(hours.holidays);
  const today = Math.floor(wallClock(at, hours.timeZone) / DAY) * DAY;
  const spans: [number, number][] = [];
  // From yesterday: a span of yesterday may still run (never past midnight, but kept simple).
  for (let d = -1; d <= LOOK_AHEAD_DAYS; d++) {
    const day = today + d * DAY;
    if (holidays.has(dayKey(day))) continue;
    // getUTCDay: Sunday is 0; the week is kept Monday first.
    const weekday = (new Date(day).getUTCDay() + 6) % 7;
    for (const span of hours.weekly[weekday] ?? []) {
      const start = instantOf(day + minutesOf(span.from) * MINUTE, hours.timeZone);
      const end = instantOf(day + minutesOf(span.to) * MINUTE, hours.timeZone);
      const last = spans.at(-1);
      // Spans that meet (until 24:00, then from 00:00) are one opening.
      if (last && last[1] >= start) last[1] = Math.max(last[1], end);
      else spans.push([start, end]);
    }
  }
  const current = spans.find(([start, end]) => start <= at && at < end);
  if (current) return { open: true, closesAt: new Date(current[1]), nextOpen: null };
  const next = spans.find(([start]) => start > at);
  return { open: false, closesAt: null, nextOpen: next ? new Date(next[0]) : null };
}
