import type { i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import { StateLink, useInSitePage } from '#client/lib/address.tsx';
import type { ErrorCode } from '#common/error-codes.ts';
import { type ErrorDetails, errorText } from '#common/error-texts.ts';
import { bestLanguage, type Language } from '#common/languages.ts';
import { type PageId, pagePath } from '#common/routes.ts';

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
  // In the console, outside the site's pages, the helping page is an ordinary link.
  const inSite = useInSitePage();
  const actions = errorActions(code);
  return (
    <>
      {errorMessage(i18n, { code })}
      {actions.map((action) => (
        <span key={action}>
          {' '}
          {inSite && email ? (
            <StateLink className="field__action" to={actionPath(lang, action)} state={{ email }}>
              {t(`actions.${action}`)}
            </StateLink>
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
