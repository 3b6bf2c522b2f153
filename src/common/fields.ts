import type { ErrorCode } from './error-codes.ts';
import { characterCount, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from './field-bounds.ts';
import { z } from './zod.ts';

/**
 * The field rules more than one feature takes (accounts, contact, chat, staff), shared by the
 * browser and the server. Each rule names the error code it fails with. Rules of one feature live
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
