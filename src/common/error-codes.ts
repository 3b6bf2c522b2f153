/** Every error the API answers with, as `{ "error": { "code": ... } }`; texts live in the `errors` namespace. */
export const ERROR_CODES = [
  'UNKNOWN_ERROR',
  'INVALID_REQUEST',
  'SERVER_ERROR',
  'NETWORK_ERROR',
  'VALIDATION_ERROR',
  'INVALID_EMAIL',
  'INVALID_PASSWORD',
  'INVALID_PHONE',
  'INVALID_NAME',
  'MISSING_REQUIRED_FIELD',
  'AUTHENTICATION_FAILED',
  'UNAUTHORIZED',
  'SESSION_EXPIRED',
  'INVALID_CREDENTIALS',
  'EMAIL_ALREADY_EXISTS',
  'PHONE_ALREADY_EXISTS',
  'REGISTRATION_FAILED',
  'VERIFICATION_FAILED',
  'TOO_MANY_REQUESTS',
  'REQUEST_TIMEOUT',
  'FINGERPRINT_REQUIRED',
  'INVALID_FINGERPRINT',
  // The contact form and the operator console.
  'INVALID_SUBJECT',
  'MESSAGE_TOO_SHORT',
  'MESSAGE_TOO_LONG',
  'FORBIDDEN',
  'NOT_FOUND',
  'OWN_ROLE',
  'INVALID_DATE_RANGE',
  // Second factors.
  'INVALID_CODE',
  'SIGN_IN_EXPIRED',
  'SECOND_FACTOR_REQUIRED',
  'TOTP_ALREADY_ON',
  'TOTP_NOT_SET_UP',
  // New passwords.
  'PASSWORD_TOO_COMMON',
  // Passkeys.
  'PASSKEY_FAILED',
  'PASSKEY_EXPIRED',
  'PASSKEY_LIMIT',
  'INVALID_PASSKEY_NAME',
  // The chat desk: saved replies, assignment, search, ratings.
  'INVALID_SHORTCUT',
  'SAVED_REPLY_EXISTS',
  'INVALID_ASSIGNEE',
  'SEARCH_TOO_SHORT',
  'INVALID_RATING',
  'CONVERSATION_OPEN',
  // The account page: email change and its undo link.
  'EMAIL_UNCHANGED',
  'LINK_EXPIRED',
  // Sign-in with OpenID Connect providers.
  'OIDC_PROVIDER_UNAVAILABLE',
  'OIDC_DENIED',
  'OIDC_FAILED',
  'OIDC_STATE_MISMATCH',
  'OIDC_EMAIL_UNVERIFIED',
  'OIDC_ACCOUNT_EXISTS',
  'OIDC_IDENTITY_TAKEN',
  'LAST_SIGN_IN_METHOD',
  // Confirming a sensitive change by signing in again at a provider (an account without a password).
  'REAUTHENTICATION_REQUIRED',
  'OIDC_NOT_REAUTHENTICATED',
  'OIDC_WRONG_IDENTITY',
  // An account form sent without JavaScript.
  'SECOND_STEP_NEEDS_SCRIPT',
  // The console's texts editor.
  'TEXT_NOT_FOUND',
  'TEXT_TOO_LONG',
  'TEXT_PLACEHOLDERS',
  'TEXT_MARKUP',
  'TEXT_PLURAL_FORM',
  'PLACEHOLDERS_LEFT',
  'NOTHING_TO_UNDO',
  // The console's brand settings.
  'BRAND_COLOUR_CONTRAST',
  'LOGO_NOT_IMAGE',
  'LOGO_UNSAFE',
  'LOGO_TOO_LARGE',
  'PINNED_BY_CONFIG',
  // The pages' pictures in the console.
  'PICTURE_NOT_IMAGE',
  'PICTURE_TOO_LARGE',
  'PICTURE_TOO_SMALL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ApiErrorBody {
  error: { code: ErrorCode; fields?: Record<string, ErrorCode> };
}

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
