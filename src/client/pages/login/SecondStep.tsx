import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, SubmitButton, TextField, useForm } from '#client/features/forms/index.ts';
import { callApi } from '#client/lib/api-client.ts';
import { ACCOUNT_API, type LoginAnswer } from '#common/account-api.ts';
import { RETENTION } from '#common/retention.ts';

const rules = () => import('#common/account-schemas.ts').then((s) => ({ code: s.OneTimeCodeSchema }));

/**
 * Sign-in's second step: a code from the authenticator app or a recovery code (only the latter for
 * an account whose second factor is a passkey: the way in once the passkey is lost), for the sign-in
 * whose password was right (`pending`, held by this page only). Out of time or tries, the visitor
 * starts again with the password.
 */
export function SecondStep({
  pending,
  onSignedIn,
  onRestart,
  onPasskey,
  recoveryOnly = false,
}: {
  pending: string;
  onSignedIn: (account: { name: string }) => void;
  onRestart: () => void;
  /** For an account with a passkey: signs in with it instead (a passkey alone counts two factors). */
  onPasskey?: () => void;
  /** Without an authenticator app, what can be typed here is a recovery code only. */
  recoveryOnly?: boolean;
}) {
  const { t } = useTranslation('login');
  const form = useForm('second-step', { code: '', trustBrowser: false }, rules, {
    codeFields: { INVALID_CODE: 'code' },
    visitor: true,
  });
  // The step replaces the password form: the visitor's next keystroke belongs in the code field.
  useEffect(() => form.focus('code'), []);

  const submit = form.submit(async (values) => {
    const result = await callApi<LoginAnswer>(ACCOUNT_API.loginSecondFactor, { ...values, pending });
    if (!result.ok) {
      if (result.code === 'SIGN_IN_EXPIRED') onRestart();
      return result;
    }
    if (result.data.status === 'signed-in') onSignedIn(result.data.account);
    return undefined;
  });
  const trust = form.field('trustBrowser');

  return (
    <Form onSubmit={submit}>
      <TextField
        field={form.field('code')}
        label={recoveryOnly ? t('secondStep.recoveryCode') : t('secondStep.code')}
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
      />
      <div className="field field--check">
        <input
          type="checkbox"
          id={trust.id}
          name={trust.name}
          checked={trust.value === true}
          aria-describedby={`${trust.id}-hint`}
          onChange={(event) => trust.onChange(event.target.checked)}
        />
        <label htmlFor={trust.id}>{t('secondStep.trust', { count: RETENTION.trustedBrowserDays })}</label>
        <p id={`${trust.id}-hint`} className="field__hint">
          {t('secondStep.trustHint')}
        </p>
      </div>
      <SubmitButton busy={form.busy}>{t('secondStep.submit')}</SubmitButton>
      {onPasskey && (
        <p className="form__aside">
          <button type="button" className="link-button" onClick={onPasskey}>
            {t('secondStep.passkey')}
          </button>
        </p>
      )}
      <p className="form__aside">
        <button type="button" className="link-button" onClick={onRestart}>
          {t('secondStep.restart')}
        </button>
      </p>
    </Form>
  );
}
