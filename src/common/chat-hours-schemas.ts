import { z } from './zod.ts';

/** "HH:MM" from 00:00 to 23:59, or 24:00 for the end of a day. */
const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const DATE = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;
/** Spans a day may have (a morning and an afternoon, and one more). */
export const MAX_SPANS_PER_DAY = 3;
export const MAX_HOLIDAYS = 100;

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

const IntervalSchema = z
  .object({
    from: z.string({ error: 'VALIDATION_ERROR' }).check(z.regex(TIME, 'VALIDATION_ERROR')),
    to: z.string({ error: 'VALIDATION_ERROR' }).check(z.regex(TIME, 'VALIDATION_ERROR')),
  })
  .check(z.refine((span) => minutes(span.from) < minutes(span.to), 'VALIDATION_ERROR'));

/** A day's spans, each after the one before and none overlapping. */
const DaySchema = z.array(IntervalSchema, { error: 'VALIDATION_ERROR' }).check(
  z.maxLength(MAX_SPANS_PER_DAY, 'VALIDATION_ERROR'),
  z.refine(
    (spans) => spans.every((span, i) => i === 0 || minutes(spans[i - 1]?.to ?? '00:00') <= minutes(span.from)),
    'VALIDATION_ERROR',
  ),
);

/** A time zone the runtime knows (the browser shows the team's hours in the visitor's own). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return name.length <= 64;
  } catch {
    return false;
  }
}

export const ChatSettingsSchema = z.object({
  hoursEnabled: z.boolean({ error: 'VALIDATION_ERROR' }),
  timeZone: z.string({ error: 'VALIDATION_ERROR' }).check(z.refine(isTimeZone, 'VALIDATION_ERROR')),
  weekly: z.array(DaySchema, { error: 'VALIDATION_ERROR' }).check(z.length(7, 'VALIDATION_ERROR')),
  holidays: z
    .array(z.string({ error: 'VALIDATION_ERROR' }).check(z.regex(DATE, 'VALIDATION_ERROR')), {
      error: 'VALIDATION_ERROR',
    })
    .check(z.maxLength(MAX_HOLIDAYS, 'VALIDATION_ERROR')),
  alertAfterMinutes: z
    .number({ error: 'VALIDATION_ERROR' })
    .check(z.int('VALIDATION_ERROR'), z.gte(1, 'VALIDATION_ERROR'), z.lte(1440, 'VALIDATION_ERROR')),
});

export const OperatorAlertsSchema = z.object({ sound: z.boolean({ error: 'VALIDATION_ERROR' }) });
