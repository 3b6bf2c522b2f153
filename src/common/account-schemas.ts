import type { ErrorCode } from './error-codes.ts';
import {
  CODE_LENGTH,
  characterCount,
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from './field-bounds.ts';
import { DEFAULT_LANGUAGE, LANGUAGES } from './languages.ts';
import { z } from './zod.ts';

/**
 * The field rules of the account forms, shared by the browser (which checks each field as it is
 * touched) and the server (which checks whole requests). Each rule names the error code it fails
 * with, so the server answers `{ fields: { email: 'INVALID_EMAIL' } }` and the browser shows the
 * same text from the `errors` namespace. zod/mini keeps the browser's share of this small.
 */

export {
  CODE_LENGTH,
  characterCount,
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from './field-bounds.ts';

/** E.164: at most 15 digits; 8 is the shortest full international number in use. */
const PHONE_MIN_DIGITS = 8;
const PHONE_MAX_DIGITS = 15;

/** A string field that must be there: absent or blank says MISSING_REQUIRED_FIELD, any other type `code`. */
function requiredText(code: ErrorCode, trim = true) {
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

const PHONE_FORMAT = /^(\+|00)[1-9][\d\s().-]*$/;
const phoneDigits = (phone: string) => phone.replace(/\D/g, '').length - (phone.startsWith('00') ? 2 : 0);

/** An international number, typed with spaces, dots, dashes or brackets as people do; kept as +digits. */
export const PhoneSchema = z.pipe(
  requiredText('INVALID_PHONE').check(
    z.maxLength(40, 'INVALID_PHONE'),
    z.regex(PHONE_FORMAT, 'INVALID_PHONE'),
    z.refine(
      (phone) => phoneDigits(phone) >= PHONE_MIN_DIGITS && phoneDigits(phone) <= PHONE_MAX_DIGITS,
      'INVALID_PHONE',
    ),
  ),
  z.transform((phone) => `+${phone.replace(/^00/, '').replace(/\D/g, '')}`),
);

/** A new password. Never trimmed: every character counts. Lone surrogate halves cannot be hashed faithfully. */
export const PasswordSchema = requiredText('INVALID_PASSWORD', false).check(
  z.refine((password) => characterCount(password) >= PASSWORD_MIN_LENGTH, 'INVALID_PASSWORD'),
  z.refine((password) => characterCount(password) <= PASSWORD_MAX_LENGTH, 'INVALID_PASSWORD'),
  z.refine((password) => !/\p{Cs}/u.test(password), 'INVALID_PASSWORD'),
);

/** A password being checked, not chosen: any length is worth a try, up to a bound on hashing work. */
export const CurrentPasswordSchema = requiredText('INVALID_PASSWORD', false).check(
  z.maxLength(4 * PASSWORD_MAX_LENGTH, 'INVALID_PASSWORD'),
);

/** Six digits; spaces people type between them are ignored. */
export const CodeSchema = z.pipe(
  requiredText('VERIFICATION_FAILED').check(z.maxLength(20, 'VERIFICATION_FAILED')),
  z.pipe(
    z.transform((code: string) => code.replace(/\s/g, '')),
    z.string().check(z.regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), 'VERIFICATION_FAILED')),
  ),
);

/** The page language the visitor used, for the mail they get. */
const LanguageSchema = z._default(z.enum(LANGUAGES), DEFAULT_LANGUAGE);

export const RegisterSchema = z.object({
  name: NameSchema,
  email: EmailSchema,
  phone: PhoneSchema,
  password: PasswordSchema,
  acceptTerms: z.literal(true, { error: 'MISSING_REQUIRED_FIELD' }),
  language: LanguageSchema,
  /** The honeypot: hidden from people, so only a robot fills it in. */
  website: z.optional(z.string().check(z.maxLength(500))),
});

export const LoginSchema = z.object({
  email: EmailSchema,
  password: CurrentPasswordSchema,
  language: LanguageSchema,
  /** What a password reset gave this browser (see ResetAnswer): a way past the account's sign-in lock. */
  signInPass: z.optional(z.string().check(z.maxLength(200, 'INVALID_REQUEST'))),
});

export const VerifySchema = z.object({ email: EmailSchema, code: CodeSchema });

/** Asking for a mail: a new verification code, or a password reset code. */
export const MailRequestSchema = z.object({ email: EmailSchema, language: LanguageSchema });

export const ResetPasswordSchema = z.object({ email: EmailSchema, code: CodeSchema, password: PasswordSchema });

/** Calls that need nothing but the session still take a JSON object, like every other state-changing call. */
export const NoFieldsSchema = z.object({});

export const DeleteAccountSchema = z.object({ password: CurrentPasswordSchema });
