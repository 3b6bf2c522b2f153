import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthCard, setSignedIn } from '#client/features/accounts/index.ts';
import { navigate, useAddress, useLanguage } from '#client/lib/address.tsx';
import { callApi } from '#client/lib/api-client.ts';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import { ACCOUNT_SETTINGS_API } from '#common/account-settings-api.ts';
import { pagePath } from '#common/routes.ts';

type State = { kind: 'reading' } | { kind: 'ready'; token: string } | { kind: 'no-link' } | { kind: 'done' };

/**
 * Opened from the mail to the old address after a change of email address. The link's token is in
 * the fragment, which no server sees; it is read after hydration and taken out of the address bar.
 * Nothing happens until the visitor presses the button, so a mail scanner that opens links undoes nothing.
 */
export default function EmailUndoPage() {
  const { t } = useTranslation('settings');
  const lang = useLanguage();
  const location = useAddress();
  const errorToast = useErrorToast();
  const [state, setState] = useState<State>({ kind: 'reading' });
  const [busy, setBusy] = useState(false);
  const outcome = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    const token = new URLSearchParams(location.hash.slice(1)).get('token');
    if (token) {
      setState({ kind: 'ready', token });
      navigate(location.pathname + location.search, { replace: true });
    } else {
      setState({ kind: 'no-link' });
    }
  }, []);

  const undo = async () => {
    if (state.kind !== 'ready' || busy) return;
    setBusy(true);
    const result = await callApi(ACCOUNT_SETTINGS_API.emailChangeUndo, { token: state.token });
    setBusy(false);
    if (!result.ok) {
      void errorToast(result);
      return;
    }
    // Every session of the account ended, this browser's too.
    setSignedIn(null);
    setState({ kind: 'done' });
  };
  // The button pressed is gone with the step it belonged to: the outcome takes the focus, so it is read at once.
  useEffect(() => {
    if (state.kind === 'done') outcome.current?.focus();
  }, [state.kind]);

  return (
    <AuthCard title={t('undo.title')} other={{ label: t('undo.back'), page: 'login' }}>
      {state.kind === 'done' ? (
        <>
          <p ref={outcome} tabIndex={-1} role="status">
            {t('undo.done')}
          </p>
          <p>
            <a className="button button--block" href={pagePath(lang, 'forgotPassword')}>
              {t('undo.next')}
            </a>
          </p>
        </>
      ) : state.kind === 'no-link' ? (
        <p role="status">{t('undo.noLink')}</p>
      ) : (
        <>
          <p className="auth__lead">{t('undo.lead')}</p>
          <button
            type="button"
            className="button button--block"
            onClick={undo}
            disabled={state.kind !== 'ready'}
            aria-busy={busy}
          >
            {t('undo.submit')}
          </button>
        </>
      )}
    </AuthCard>
  );
}
