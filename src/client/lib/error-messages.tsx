import type { i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useInRouterContext } from 'react-router';
import { CODE_LIFETIME_MINUTES, CODE_MAX_ATTEMPTS } from '#common/account-api.ts';
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#common/account-fields.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { bestLanguage, type Language } from '#common/languages.ts';
import { type PageId, pagePath } from '#common/routes.ts';

/**
 * What each error code tells the visitor, from the `errors` texts: the numbers its text names
 * (taken from the constants the rules use, so that the text cannot drift from them), how long to
 * wait when the server said so, and the pages that help (sign in, reset the password, write to us).
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

/** The message in the instance's current language; the generic "try again" when there is none. */
export function errorMessage(i18n: I18n, details: ErrorDetails): string {
  const { key, options } = errorText(details);
  return i18n.exists(key, { ns: 'errors', ...options })
    ? i18n.t(key as never, { ns: 'errors', ...options })
    : i18n.t('error.text');
}

export type ErrorAction = 'signIn' | 'resetPassword' | 'contact';

const ACTION_PAGES: Record<ErrorAction, PageId> = {
  signIn: 'login',
  resetPassword: 'forgotPassword',
  contact: 'contact',
};

/** The pages that help with an error, in the order the text mentions them. */
export function errorActions(code: ErrorCode): ErrorAction[] {
  switch (code) {
    case 'EMAIL_ALREADY_EXISTS':
      return ['signIn', 'resetPassword'];
    case 'PHONE_ALREADY_EXISTS':
      return ['signIn'];
    case 'INVALID_CREDENTIALS':
      return ['resetPassword'];
    case 'UNKNOWN_ERROR':
      return ['contact'];
    default:
      return [];
  }
}

export const actionPath = (language: Language, action: ErrorAction) => pagePath(language, ACTION_PAGES[action]);

/**
 * An error's message with links to the pages that help; `email`, when known, is carried to them
 * so that the visitor does not type it again.
 */
export function ErrorMessage({ code, email }: { code: ErrorCode; email?: string }) {
  const { i18n, t } = useTranslation('errors');
  const lang = bestLanguage([i18n.language]);
  // The console has no router of its own: there, the helping page is an ordinary link.
  const inRouter = useInRouterContext();
  const actions = errorActions(code);
  return (
    <>
      {errorMessage(i18n, { code })}
      {actions.map((action) => (
        <span key={action}>
          {' '}
          {inRouter ? (
            <Link className="field__action" to={actionPath(lang, action)} state={email ? { email } : undefined}>
              {t(`actions.${action}`)}
            </Link>
          ) : (
            <a className="field__action" href={actionPath(lang, action)}>
              {t(`actions.${action}`)}
            </a>
          )}
        </span>
      ))}
    </>
  );
}
