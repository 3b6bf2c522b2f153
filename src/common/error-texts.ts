import { CODE_LIFETIME_MINUTES, CODE_MAX_ATTEMPTS } from './account-api.ts';
import type { ErrorCode } from './error-codes.ts';
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './field-bounds.ts';

/**
 * What each error code tells the visitor, from the `errors` texts: the numbers its text names
 * (taken from the constants the rules use, so that the text cannot drift from them), how long to
 * wait when the server said so. The browser shows them (client/lib/error-messages.tsx) and so does
 * the server's page for a form sent without JavaScript.
 */

export interface ErrorDetails {
  code: ErrorCode;
  /** Seconds to wait, from Retry-After. */
  retryAfter?: number;
}

const SECONDS_PER_MINUTE = 60;

/** The text's key in `errors` and the values it is filled with. */
export function errorText(details: ErrorDetails): { key: string; options: Record<string, number> } {
  const { code, retryAfter } = details;
  switch (code) {
    case 'TOO_MANY_REQUESTS':
      if (retryAfter === undefined || retryAfter <= 0) return { key: code, options: {} };
      return retryAfter < SECONDS_PER_MINUTE
        ? { key: 'retry.seconds', options: { count: retryAfter } }
        : { key: 'retry.minutes', options: { count: Math.ceil(retryAfter / SECONDS_PER_MINUTE) } };
    case 'INVALID_NAME':
      return { key: code, options: { count: NAME_MAX_LENGTH } };
    case 'INVALID_PASSWORD':
      return { key: code, options: { count: PASSWORD_MAX_LENGTH, min: PASSWORD_MIN_LENGTH } };
    case 'VERIFICATION_FAILED':
      return { key: code, options: { count: CODE_LIFETIME_MINUTES, attempts: CODE_MAX_ATTEMPTS } };
    default:
      return { key: code, options: {} };
  }
}
