import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setSignedIn, signOut, useSession } from '#client/features/accounts/index.ts';
import { navigate, useLanguage } from '#client/lib/address.tsx';
import { type ApiResult, callApi } from '#client/lib/api-client.ts';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import { ACCOUNT_API, type AccountAnswer } from '#common/account-api.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { pagePath } from '#common/routes.ts';
import { DataExportSection } from './DataExportSection.tsx';
import { DeleteAccountSection } from './DeleteAccountSection.tsx';
import { EmailSection } from './EmailSection.tsx';
import { IdentitiesSection } from './IdentitiesSection.tsx';
import { PasskeysSection } from './PasskeysSection.tsx';
import { PasswordSection } from './PasswordSection.tsx';
import { ReauthenticationProvider } from './reauthentication.tsx';
import { SessionList } from './SessionList.tsx';
import { TwoFactorSection } from './TwoFactorSection.tsx';
import './account.css';

const SESSION_LOST: readonly ErrorCode[] = ['UNAUTHORIZED', 'SESSION_EXPIRED'];

/**
 * The signed-in visitor's own page. The prerendered page cannot know who that is: it shows its
 * heading and a loading line, and asks the server after hydration. Without a session the visitor
 * is sent to the sign-in page and told why.
 */
export default function AccountPage() {
  const { t } = useTranslation('login');
  const { t: tc } = useTranslation();
  const lang = useLanguage();
  const toast = useToast();
  const errorToast = useErrorToast();
  const [account, setAccount] = useState<AccountAnswer | null>(null);
  const [passkeyCount, setPasskeyCount] = useState(0);
  // Counts changes that ended sessions elsewhere on the page, for the session list to read again.
  const [sessionsChanged, setSessionsChanged] = useState(0);

  const session = useSession();
  // Set once the visitor is on the way out (signed out, deleted, or sent to sign in): the session
  // store then says nobody is signed in, which must not send them to sign in (again).
  const leaving = useRef(false);

  /** A call that failed because the session is gone sends the visitor to sign in again, saying why. */
  const failed = (code: ErrorCode) => {
    // On the way out already: a call made before the sign-out may answer after it that the session
    // is gone, which is no news and must not send the visitor to sign in.
    if (leaving.current) return;
    if (SESSION_LOST.includes(code)) {
      leaving.current = true;
      setSignedIn(null);
      navigate(pagePath(lang, 'login'), { replace: true });
    }
    void errorToast(code);
  };

  useEffect(() => {
    if (!session || leaving.current) return;
    if (!session.account) {
      // Signed out with the header's button: that button leads the way out, and nothing was lost.
      if (!session.signedOut) failed(session.expired ? 'SESSION_EXPIRED' : 'UNAUTHORIZED');
      return;
    }
    void callApi<AccountAnswer>(ACCOUNT_API.account).then((result) => {
      if (result.ok) setAccount(result.data);
      else failed(result.code);
    });
  }, [session]);

  const leave = (message: string) => {
    leaving.current = true;
    setSignedIn(null);
    toast.show({ type: 'success', message });
    navigate(pagePath(lang, 'home'));
  };

  /** Signs out with `call`: leaving from the start, since the session store hears of it before `call` answers. */
  const signOutWith = async (call: () => Promise<ApiResult<unknown>>, message: string) => {
    leaving.current = true;
    const result = await call();
    if (result.ok) return leave(message);
    leaving.current = false;
    failed(result.code);
  };
  const signOutHere = () => signOutWith(signOut, tc('account.signedOut'));
  const signOutEverywhere = () =>
    signOutWith(() => callApi(ACCOUNT_API.signOutEverywhere, {}), t('account.signedOutEverywhere'));

  return (
    <article className="container page account">
      <h1>{t('account.title')}</h1>
      {!account ? (
        <>
          <noscript>
            <p>{tc('form.noScript')}</p>
          </noscript>
          <p className="account__loading" role="status">
            {t('account.loading')}
          </p>
        </>
      ) : (
        <ReauthenticationProvider failed={failed}>
          <section aria-labelledby="account-details">
            <h2 id="account-details">{t('account.details')}</h2>
            <dl className="account__details">
              <dt>{t('account.name')}</dt>
              <dd>{account.name}</dd>
              <dt>{t('account.email')}</dt>
              <dd>{account.email}</dd>
              {account.phone !== null && (
                <>
                  <dt>{t('account.phone')}</dt>
                  <dd>{account.phone}</dd>
                </>
              )}
              <dt>{t('account.since')}</dt>
              <dd>{new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(new Date(account.createdAt))}</dd>
            </dl>
          </section>
          <section aria-labelledby="account-sessions">
            <h2 id="account-sessions">{t('account.sessions.title')}</h2>
            <p>{t('account.sessions.text')}</p>
            <p className="actions">
              <button type="button" className="button" onClick={signOutHere}>
                {t('account.sessions.signOut')}
              </button>
              <button type="button" className="button button--secondary" onClick={signOutEverywhere}>
                {t('account.sessions.everywhere')}
              </button>
            </p>
            <SessionList failed={failed} version={sessionsChanged} />
          </section>
          <PasswordSection failed={failed} onChanged={() => setSessionsChanged((n) => n + 1)} />
          <EmailSection
            email={account.email}
            failed={failed}
            onChanged={(email) => setAccount({ ...account, email })}
          />
          <TwoFactorSection email={account.email} failed={failed} hasPasskey={passkeyCount > 0} />
          <PasskeysSection email={account.email} failed={failed} onCount={setPasskeyCount} />
          <IdentitiesSection failed={failed} />
          <DataExportSection failed={failed} />
          <DeleteAccountSection failed={failed} onDeleted={() => leave(t('account.delete.done'))} />
        </ReauthenticationProvider>
      )}
    </article>
  );
}
