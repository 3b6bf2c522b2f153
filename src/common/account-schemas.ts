import { CODE_LENGTH, characterCount, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './field-bounds.ts';
import { EmailSchema, requiredText } from './fields.ts';
import { DEFAULT_LANGUAGE, LANGUAGES } from './languages.ts';
import { z } from './zod.ts';

/**
 * The field rules of the account forms (the shared ones, name and email, are in fields.ts), shared
 * by the browser (which checks each field as it is touched) and the server (which checks whole
 * requests). Each rule names the error code it fails
 * with, so the server answers `{ fields: { email: 'INVALID_EMAIL' } }` and the browser shows the
 * same text from the `errors` namespace. zod/mini keeps the browser's share of this small.
 */

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
export const LanguageSchema = z._default(z.enum(LANGUAGES), DEFAULT_LANGUAGE);

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

/**
 * The password of a sensitive change, left out by an account without one: a fresh sign-in at a
 * provider stands in for it then (docs/decisions/220).
 */
export const ProofPasswordSchema = z.optional(CurrentPasswordSchema);

export const DeleteAccountSchema = z.object({ password: ProofPasswordSchema });

/**
 * What the second step of a sign-in takes: six digits from the authenticator app or a recovery
 * code; the server tells them apart. Bounded, and spaces people type are the server's to ignore.
 */
export const OneTimeCodeSchema = requiredText('INVALID_CODE').check(z.maxLength(40, 'INVALID_CODE'));

export const SecondFactorSchema = z.object({
  /** From the sign-in's answer (see LoginAnswer). */
  pending: requiredText('SIGN_IN_EXPIRED').check(z.maxLength(200, 'SIGN_IN_EXPIRED')),
  code: OneTimeCodeSchema,
  trustBrowser: z._default(z.boolean({ error: 'INVALID_REQUEST' }), false),
});

/** The first code from the app confirms it, with the password: a session left open is not enough to add a factor. */
export const TotpConfirmSchema = z.object({ code: OneTimeCodeSchema, password: ProofPasswordSchema });

/** Turning the app off takes the password and a current code (or a recovery code, when the phone is gone). */
export const TotpDisableSchema = z.object({ code: OneTimeCodeSchema, password: ProofPasswordSchema });

export const PasswordOnlySchema = z.object({ password: ProofPasswordSchema });

export const ForgetBrowserSchema = z.object({ id: z.uuid({ error: 'NOT_FOUND' }) });
