import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthCard, keepSignInPass, setSignedIn, useMailLink } from '#client/features/accounts/index.ts';
import { Form, PasswordField, SubmitButton, TextField, useForm } from '#client/features/forms/index.ts';
import { navigate, useLanguage } from '#client/lib/address.tsx';
import { callApi } from '#client/lib/api-client.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import { ACCOUNT_API, type ResetAnswer } from '#common/account-api.ts';
import { pagePath } from '#common/routes.ts';

/** The fields' rules, imported after hydration: zod is not needed to show the form or take a keystroke. */
const rules = () =>
  Promise.all([import('#common/fields.ts'), import('#common/account-schemas.ts')]).then(([f, s]) => ({
    email: f.EmailSchema,
    code: s.CodeSchema,
    password: s.PasswordSchema,
  }));

/**
 * Two steps on one page: the address to mail a code to, then that code with the new password.
 * `firstStep` "code" is the second step's own page, which a browser without JavaScript is sent to
 * once the code is mailed: it asks for the address too, which that browser cannot carry over.
 */
export default function ForgotPasswordPage({ firstStep = 'email' }: { firstStep?: 'email' | 'code' }) {
  const { t } = useTranslation('login');
  const lang = useLanguage();
  const toast = useToast();
  const link = useMailLink();
  const [step, setStep] = useState(firstStep);
  const askEmail = firstStep === 'code';
  // The field to focus once a step has rendered: the new fields replace the old ones, and focus
  // goes to the first of them rather than getting lost.
  const [focusNext, setFocusNext] = useState<'email' | 'code' | 'password' | null>(null);
  const form = useForm('forgot', { email: '', code: '', password: '' }, rules, { visitor: true });

  const show = (next: 'email' | 'code', field: 'email' | 'code' | 'password') => {
    setStep(next);
    setFocusNext(field);
  };
  useEffect(() => {
    if (!focusNext) return;
    form.focus(focusNext);
    setFocusNext(null);
  }, [focusNext]);

  useEffect(() => {
    if (!link) return;
    form.set('email', link.email);
    if (link.code) {
      form.set('code', link.code);
      show('code', 'password');
    }
  }, [link]);

  const sendCode = form.action(['email'], async (values) => {
    const result = await callApi(ACCOUNT_API.forgotPassword, { email: values.email, language: lang });
    if (!result.ok) return result;
    toast.show({ type: 'info', message: t('forgot.sent') });
    show('code', 'code');
  });

  const reset = form.action(['email', 'code', 'password'], async (values) => {
    const result = await callApi<ResetAnswer>(ACCOUNT_API.resetPassword, values);
    if (!result.ok) return result;
    keepSignInPass(values.email, result.data.signInPass);
    setSignedIn(null);
    toast.show({ type: 'success', message: t('forgot.done'), autoClose: false });
    navigate(pagePath(lang, 'login'));
  });

  return (
    <AuthCard
      title={t('forgot.title')}
      lead={
        step === 'email'
          ? t('forgot.lead')
          : askEmail
            ? t('forgot.sentLead')
            : t('forgot.codeLead', { email: form.values.email })
      }
      other={{ label: t('forgot.back'), page: 'login' }}
      plain
    >
      {step === 'email' ? (
        <Form onSubmit={sendCode} action={ACCOUNT_API.forgotPassword}>
          <TextField field={form.field('email')} label={t('forgot.email')} type="email" autoComplete="email" />
          <SubmitButton busy={form.busy}>{t('forgot.send')}</SubmitButton>
        </Form>
      ) : (
        <>
          <Form onSubmit={reset} action={ACCOUNT_API.resetPassword}>
            {askEmail && (
              <TextField field={form.field('email')} label={t('forgot.email')} type="email" autoComplete="email" />
            )}
            <TextField
              field={form.field('code')}
              label={t('forgot.code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={12}
              className="field__code"
            />
            <PasswordField
              field={form.field('password')}
              label={t('forgot.password')}
              autoComplete="new-password"
              showStrength
            />
            <SubmitButton busy={form.busy}>{t('forgot.submit')}</SubmitButton>
          </Form>
          <div className="form__secondary">
            <button type="button" className="button button--secondary button--block" onClick={sendCode}>
              {t('forgot.resend')}
            </button>
            <button type="button" className="link-button" onClick={() => show('email', 'email')}>
              {t('forgot.otherEmail')}
            </button>
          </div>
        </>
      )}
    </AuthCard>
  );
}
