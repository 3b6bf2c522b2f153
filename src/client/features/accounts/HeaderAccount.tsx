import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate, useLanguage } from '#client/lib/address.tsx';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import { consolePath, pagePath } from '#common/routes.ts';
import { signOut, useSession } from './session-store.ts';

/**
 * The header's account corner: "Sign in" until the server says someone is signed in, then their
 * name (leading to the account page) and a sign-out button, in the same reserved space.
 */
export default function HeaderAccount({ signIn }: { signIn: ReactNode }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const account = useSession()?.account;
  const toast = useToast();
  const errorToast = useErrorToast();

  if (!account) return signIn;
  // Keyed, so that the name is a new element rather than the sign-in link moved and resized: only
  // the latter counts as a layout shift.
  return (
    <>
      {/* data-room: at least as wide as the "Sign in" it replaces (styles/layout.css), so that the brand
          beside keeps its room. */}
      <a
        key="account"
        className="header-account__name"
        href={pagePath(lang, 'account')}
        data-room={t('account.signIn')}
      >
        <span className="visually-hidden">{t('account.signedInAs')} </span>
        <span className="header-account__label">{account.name}</span>
      </a>
      {/* Staff find the console from every page, in the place of signing out (the console and the
          account page both offer that): the corner has room for the name and one button in every
          language. It looks like the sign-out button (and folds away with it on narrow screens), so
          the first paint's stylesheet gains nothing. */}
      {account.staff ? (
        <a key="console" className="header-account__sign-out" href={consolePath('inbox')}>
          {t('account.console')}
        </a>
      ) : (
        <button
          type="button"
          className="header-account__sign-out"
          onClick={async () => {
            const result = await signOut();
            if (!result.ok) return errorToast(result.code);
            toast.show({ type: 'success', message: t('account.signedOut') });
            navigate(pagePath(lang, 'home'));
          }}
        >
          {t('account.signOut')}
        </button>
      )}
    </>
  );
}
