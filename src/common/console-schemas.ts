import {
  ANALYTICS_DIMENSIONS,
  ANALYTICS_PERIODS,
  type AnalyticsDimension,
  MESSAGE_STATUSES,
  SETTABLE_STATUSES,
} from './console-api.ts';
import { ReplyBodySchema } from './contact-schemas.ts';
import { EmailSchema, NameSchema } from './fields.ts';
import { DEFAULT_LANGUAGE, LANGUAGES } from './languages.ts';
import { ROLES, STAFF_ROLES } from './roles.ts';
import { z } from './zod.ts';

/** The longest date range the analytics and the inbox filter take: a little over a year. */
export const MAX_RANGE_DAYS = 400;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whether a time written as an ISO date (and time) exists and falls in a year the databases take:
 * 0001 to 9999. Year 0000 is valid ISO (1 BC) but PostgreSQL refuses it, which answered 500.
 */
function existsAsWritten(iso: string, dateOnly: boolean): boolean {
  const date = new Date(dateOnly ? `${iso}T00:00:00Z` : iso);
  return (
    !Number.isNaN(date.getTime()) && date.getUTCFullYear() >= 1 && date.toISOString().slice(0, 10) === iso.slice(0, 10)
  );
}

/** A calendar day as YYYY-MM-DD (UTC), one that exists, from year 1. */
export const DaySchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'MISSING_REQUIRED_FIELD' : 'INVALID_DATE_RANGE') })
  .check(
    z.regex(/^\d{4}-\d{2}-\d{2}$/, 'INVALID_DATE_RANGE'),
    z.refine((day) => existsAsWritten(day, true), 'INVALID_DATE_RANGE'),
  );

const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS;

/** A range of days, both ends included: the start not after the end, and not too long. */
const rangeChecks = <T extends { from?: string; to?: string }>() =>
  z.refine<T>(
    ({ from, to }) => !from || !to || (daysBetween(from, to) >= 0 && daysBetween(from, to) < MAX_RANGE_DAYS),
    { message: 'INVALID_DATE_RANGE', path: ['to'] },
  );

/** Where the next page of the inbox starts: the time and id of the last message shown. */
const CURSOR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z_[0-9a-f-]{36}$/;

export const MessagesQuerySchema = z
  .object({
    status: z._default(z.enum(['inbox', 'all', ...MESSAGE_STATUSES]), 'inbox'),
    language: z.optional(z.enum(LANGUAGES)),
    from: z.optional(DaySchema),
    to: z.optional(DaySchema),
    /** Control characters (a NUL cannot even reach the database) and lone surrogate halves are dropped. */
    q: z.optional(
      z.string().check(
        z.maxLength(200),
        z.overwrite((q) => q.replace(/\p{Cc}/gu, '').replace(/\p{Cs}/gu, '')),
      ),
    ),
    before: z.optional(
      z.string().check(
        z.regex(CURSOR),
        z.refine((cursor) => existsAsWritten(cursor.split('_')[0] ?? '', false)),
      ),
    ),
  })
  .check(rangeChecks());

export type MessagesQuery = z.infer<typeof MessagesQuerySchema>;

export const StatusSchema = z.object({ status: z.enum(SETTABLE_STATUSES) });
export const ReplySchema = z.object({ body: ReplyBodySchema });

/** A filter's value: a page, a host, a campaign... as the breakdown showed it (empty for "none"). */
const FilterValueSchema = z.optional(
  z.string().check(
    z.maxLength(1024),
    z.refine((value) => !/\p{Cc}/u.test(value)),
  ),
);

/** A named period, or a range of days; and any of the breakdowns as a filter. */
export const AnalyticsQuerySchema = z
  .object({
    period: z.optional(z.enum(ANALYTICS_PERIODS)),
    from: z.optional(DaySchema),
    to: z.optional(DaySchema),
    ...(Object.fromEntries(ANALYTICS_DIMENSIONS.map((name) => [name, FilterValueSchema])) as Record<
      AnalyticsDimension,
      typeof FilterValueSchema
    >),
  })
  .check(
    rangeChecks(),
    z.refine(({ period, from }) => period !== undefined || from !== undefined, {
      message: 'MISSING_REQUIRED_FIELD',
      path: ['from'],
    }),
    z.refine(({ period, to }) => period !== undefined || to !== undefined, {
      message: 'MISSING_REQUIRED_FIELD',
      path: ['to'],
    }),
  );
export type AnalyticsQuery = z.infer<typeof AnalyticsQuerySchema>;

/** Adding a staff member by address; the name is for an address that has no account yet. */
export const AddStaffSchema = z.object({
  email: EmailSchema,
  name: z.optional(NameSchema),
  role: z.enum(STAFF_ROLES),
  /** The language of the invitation mail. */
  language: z._default(z.enum(LANGUAGES), DEFAULT_LANGUAGE),
});

/** A new role for a staff member; `member` takes them off the staff. */
export const RoleSchema = z.object({ role: z.enum(ROLES) });

/** Staff ids and message ids are uuids; anything else in a path finds nothing. */
export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
