import type { ErrorCode } from './error-codes.ts';
import { characterCount, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from './field-bounds.ts';
import { z } from './zod.ts';

/**
 * The field rules more than one feature takes (accounts, contact, chat, staff, analytics), shared by
 * the browser and the server. Each rule names the error code it fails with. Rules of one feature live
 * in its own schemas file (account-schemas.ts, contact-schemas.ts, chat-schemas.ts, ...).
 */

/** A string field that must be there: absent or blank says MISSING_REQUIRED_FIELD, any other type `code`. */
export function requiredText(code: ErrorCode, trim = true) {
  return z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'MISSING_REQUIRED_FIELD' : code) })
    .check(...(trim ? [z.trim()] : []), z.minLength(1, 'MISSING_REQUIRED_FIELD'));
}

/**
 * Characters no name needs and that make text lie about itself: control characters, lone surrogate
 * halves, private-use characters, the byte order mark and the bidirectional controls that can turn
 * a name around on screen; and angle brackets, which only markup needs.
 */
const FORBIDDEN_IN_NAME = /[\p{Cc}\p{Cs}\p{Co}\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff<>]/u;

export const NameSchema = z.pipe(
  requiredText('INVALID_NAME').check(z.normalize('NFC')),
  z.string().check(
    z.refine((name) => characterCount(name) <= NAME_MAX_LENGTH, 'INVALID_NAME'),
    z.refine((name) => !FORBIDDEN_IN_NAME.test(name), 'INVALID_NAME'),
    z.refine((name) => /\p{L}/u.test(name), 'INVALID_NAME'),
  ),
);

/** Compared and stored in lower case, so that one mailbox is one account however it is typed. */
export const EmailSchema = z.pipe(
  requiredText('INVALID_EMAIL').check(z.toLowerCase()),
  z.email({ error: 'INVALID_EMAIL' }).check(z.maxLength(EMAIL_MAX_LENGTH, 'INVALID_EMAIL')),
);

/** Calls that need nothing but the session still take a JSON object, like every other state-changing call. */
export const NoFieldsSchema = z.object({});

/** The longest date range the analytics and the inbox filter take: a little over a year. */
export const MAX_RANGE_DAYS = 400;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whether a time written as an ISO date (and time) exists and falls in a year the databases take:
 * 0001 to 9999. Year 0000 is valid ISO (1 BC) but PostgreSQL refuses it, which answered 500.
 */
export function existsAsWritten(iso: string, dateOnly: boolean): boolean {
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
export const dayRangeCheck = <T extends { from?: string; to?: string }>() =>
  z.refine<T>(
    ({ from, to }) => !from || !to || (daysBetween(from, to) >= 0 && daysBetween(from, to) < MAX_RANGE_DAYS),
    { message: 'INVALID_DATE_RANGE', path: ['to'] },
  );

/** Staff ids and message ids are uuids; anything else in a path finds nothing. */
export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
