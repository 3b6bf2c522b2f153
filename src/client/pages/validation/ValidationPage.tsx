import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthCard, cookiesRefused, setSignedIn, useMailLink } from '#client/features/accounts/index.ts';
import { Form, SubmitButton, TextField, useForm } from '#client/features/forms/index.ts';
import { navigate, useLanguage } from '#client/lib/address.tsx';
import { callApi } from '#client/lib/api-client.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import { ACCOUNT_API, CODE_LIFETIME_MINUTES, type VerifyAnswer } from '#common/account-api.ts';
import { pagePath } from '#common/routes.ts';

/** The fields' rules, imported after hydration: zod is not needed to show the form or take a keystroke. */
const rules = () =>
  Promise.all([import('#common/fields.ts'), import('#common/account-schemas.ts')]).then(([f, s]) => ({
    email: f.EmailSchema,
    code: s.CodeSchema,
  }));

export default function ValidationPage() {
  const { t } = useTranslation('validation');
  const lang = useLanguage();
  const toast = useToast();
  const link = useMailLink();
  const form = useForm('validation', { email: '', code: '' }, rules, { visitor: true });

  const verify = form.submit(async (values) => {
    const refused = cookiesRefused();
    if (refused) return refused;
    const result = await callApi<VerifyAnswer>(ACCOUNT_API.verify, values);
    if (!result.ok) return result;
    setSignedIn(result.data.account);
    toast.show({ type: 'success', message: t('verified', { name: result.data.account.name }) });
    navigate(pagePath(lang, 'account'));
  });

  const sendAgain = form.action(['email'], async (values) => {
    const result = await callApi(ACCOUNT_API.resendCode, { email: values.email, language: lang });
    if (!result.ok) return result;
    toast.show({ type: 'info', message: t('resent') });
    form.focus('code');
  });

  // A link from the mail fills in both fields (confirming is then one press away); arriving from
  // registration or sign-in fills in the address and leaves the code to type.
  useEffect(() => {
    if (!link) return;
    form.set('email', link.email);
    if (link.code) form.set('code', link.code);
  }, [link]);

  return (
    <AuthCard title={t('title')} lead={t('lead')} other={{ label: t('back'), page: 'login' }} plain>
      <Form onSubmit={verify} action={ACCOUNT_API.verify}>
        <TextField field={form.field('email')} label={t('email')} type="email" autoComplete="email" />
        <TextField
          field={form.field('code')}
          label={t('code')}
          hint={t('codeHint', { count: CODE_LIFETIME_MINUTES })}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={12}
          className="field__code"
        />
        <SubmitButton busy={form.busy}>{t('submit')}</SubmitButton>
      </Form>
      <div className="form__secondary">
        <p>{t('resendText')}</p>
        <button type="button" className="button button--secondary button--block" onClick={sendAgain}>
          {t('resend')}
        </button>
      </div>
    </AuthCard>
  );
}
