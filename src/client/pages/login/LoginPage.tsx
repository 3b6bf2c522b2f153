import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AuthCard,
  cookiesRefused,
  returnPath,
  setSignedIn,
  signInPassFor,
  useMailLink,
} from '#client/features/accounts/index.ts';
import { Form, PasswordField, SubmitButton, TextField, useForm } from '#client/features/forms/index.ts';
import { navigate, useAddress, useLanguage } from '#client/lib/address.tsx';
import { callApi } from '#client/lib/api-client.ts';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import { ACCOUNT_API, type LoginAnswer } from '#common/account-api.ts';
import { pagePath } from '#common/routes.ts';
import { ProviderSignIn } from './ProviderSignIn.tsx';
import { takePendingFromAddress, useProviderResult } from './provider-return.ts';
import { SecondStep } from './SecondStep.tsx';

/** The fields' rules, imported after hydration: zod is not needed to show the form or take a keystroke. */
const rules = () =>
  Promise.all([import('#common/fields.ts'), import('#common/account-schemas.ts')]).then(([f, s]) => ({
    email: f.EmailSchema,
    password: s.CurrentPasswordSchema,
  }));

export default function LoginPage() {
  const { t } = useTranslation('login');
  const lang = useLanguage();
  const { search, state } = useAddress();
  const toast = useToast();
  const errorToast = useErrorToast();
  const form = useForm('login', { email: '', password: '' }, rules, {
    codeFields: { INVALID_CREDENTIALS: 'password' },
    visitor: true,
  });
  // Set once the password was right for an account with a second factor: the page asks for it.
  const [pending, setPending] = useState<string | null>(null);
  // Back from an identity provider: what went wrong, or the second factor it still needs.
  useProviderResult();
  useEffect(() => setPending(takePendingFromAddress()), []);

  // Answered in place of a page that needs a session (decision 092): say why sign-in is here.
  useEffect(() => {
    if ((state as { askedFor?: unknown } | null)?.askedFor) void errorToast('UNAUTHORIZED');
  }, []);

  // An address passed on by another page (an error's "Sign in" link) is filled in.
  const passed = useMailLink();
  useEffect(() => {
    if (passed) form.set('email', passed.email);
  }, [passed]);

  const submit = form.submit(async (values) => {
    const refused = cookiesRefused();
    if (refused) return refused;
    const result = await callApi<LoginAnswer>(ACCOUNT_API.login, {
      ...values,
      language: lang,
      ...signInPassFor(values.email),
    });
    if (!result.ok) return result;
    if (result.data.status === 'verification-required') {
      toast.show({ type: 'info', message: t('verifyFirst') });
      navigate(pagePath(lang, 'validation'), { state: { email: values.email } });
    } else if (result.data.status === 'second-factor-required') {
      setPending(result.data.pending);
    } else {
      signedIn(result.data.account);
    }
  });

  const signedIn = (account: { name: string }) => {
    setSignedIn(account);
    // The console is an app of its own: it is loaded, not navigated to.
    const next = returnPath(search);
    if (next) {
      window.location.assign(next);
      return;
    }
    toast.show({ type: 'success', message: t('welcome', { name: account.name }) });
    navigate(pagePath(lang, 'account'));
  };

  if (pending) {
    return (
      <AuthCard
        title={t('secondStep.title')}
        lead={t('secondStep.lead')}
        other={{ question: t('noAccount'), label: t('register'), page: 'register' }}
      >
        <SecondStep pending={pending} onSignedIn={signedIn} onRestart={() => setPending(null)} />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('title')}
      lead={t('lead')}
      other={{ question: t('noAccount'), label: t('register'), page: 'register' }}
    >
      <Form onSubmit={submit}>
        <TextField field={form.field('email')} label={t('email')} type="email" autoComplete="email" />
        <PasswordField field={form.field('password')} label={t('password')} autoComplete="current-password" />
        <p className="form__aside">
          <a href={pagePath(lang, 'forgotPassword')}>{t('forgotLink')}</a>
        </p>
        <SubmitButton busy={form.busy}>{t('submit')}</SubmitButton>
      </Form>
      <ProviderSignIn />
    </AuthCard>
  );
}
