import type { ANALYTICS_PERIODS } from '#common/analytics-api.ts';
import { instantOf, wallClock } from '#server/features/chat/index.ts';

type PeriodName = (typeof ANALYTICS_PERIODS)[number];

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const PRESET_DAYS: Record<PeriodName, number> = { today: 1, '7d': 7, '30d': 30, '90d': 90 };

/** The first instant the databases take: a period before it is cut there (the year 0 is refused). */
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');

/** The calendar day (YYYY-MM-DD) of a wall-clock instant. */
export const dayOf = (wall: number) => new Date(wall).toISOString().slice(0, 10);

export interface Span {
  /** First and last calendar day, YYYY-MM-DD in the site's time zone. */
  from: string;
  to: string;
  /** The instants the span covers: start included, end excluded. */
  start: Date;
  end: Date;
}

export interface Period extends Span {
  /** How the chart is cut: by the hour for a single day, else by the day (both in the site's time zone). */
  bucket: 'hour' | 'day';
  /** The same length just before, cut at the same time of day when the period is still running. */
  previous: Span;
}

/**
 * The period to report on, in `timeZone` (decision 180). A named one ends today: `today` is the
 * current day and `7d` the last seven days, today included. A period that has not ended stops at
 * `now`, and the previous one stops at the same wall-clock time as many days earlier, so that a
 * Tuesday morning is compared with the Tuesday morning before and not with a whole week. Days are
 * days of the wall clock: a week over a daylight-saving change is 167 or 169 hours long.
 */
export function periodOf(
  asked: { period: PeriodName } | { from: string; to: string },
  timeZone: string,
  now: Date,
): Period {
  const nowWall = wallClock(now.getTime(), timeZone);
  let fromWall: number;
  let toWall: number;
  if ('period' in asked) {
    toWall = Math.floor(nowWall / DAY) * DAY;
    fromWall = toWall - (PRESET_DAYS[asked.period] - 1) * DAY;
  } else {
    fromWall = Date.parse(`${asked.from}T00:00:00Z`);
    toWall = Date.parse(`${asked.to}T00:00:00Z`);
  }
  const length = Math.round((toWall - fromWall) / DAY) + 1;
  const endWall = Math.min(toWall + DAY, Math.max(fromWall, nowWall));
  const instant = (wall: number) =>
    new Date(wall === nowWall ? now.getTime() : Math.max(EARLIEST, instantOf(wall, timeZone)));
  const back = length * DAY;
  return {
    from: dayOf(fromWall),
    to: dayOf(toWall),
    start: instant(fromWall),
    end: instant(endWall),
    bucket: length === 1 ? 'hour' : 'day',
    previous: {
      from: dayOf(fromWall - back),
      to: dayOf(toWall - back),
      start: instant(fromWall - back),
      end: instant(endWall - back),
    },
  };
}
