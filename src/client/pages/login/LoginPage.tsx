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
import { loadPasskeys, type Passkeys, passkeysSupported } from '#client/features/passkeys/index.ts';
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
  const [pending, setPending] = useState<{ token: string; passkey: boolean; totp: boolean } | null>(null);
  // The WebAuthn code, loaded after the first paint where the browser has WebAuthn.
  const [passkeys, setPasskeys] = useState<Passkeys | null>(null);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  // False where the browser has no WebAuthn: the button's place is given back.
  const [passkeysOffered, setPasskeysOffered] = useState(true);
  // Back from an identity provider: what went wrong, or the second factor it still needs.
  useProviderResult();
  useEffect(() => {
    const fromProvider = takePendingFromAddress();
    if (fromProvider) setPending(fromProvider);
  }, []);

  // Answered in place of a page that needs a session (decision 092): say why sign-in is here.
  useEffect(() => {
    if ((state as { askedFor?: unknown } | null)?.askedFor) void errorToast('UNAUTHORIZED');
  }, []);

  // An address passed on by another page (an error's "Sign in" link) is filled in.
  const passed = useMailLink();
  useEffect(() => {
    if (passed) form.set('email', passed.email);
  }, [passed]);

  /** What a passkey sign-in came to: signed in, an error said, or (`null`, no passkey given) a word on the button's use. */
  const passkeyOutcome = (result: Awaited<ReturnType<Passkeys['signInWithPasskey']>>, mode: 'button' | 'autofill') => {
    if (result?.ok) {
      if (result.data.status === 'signed-in') signedIn(result.data.account);
    } else if (result) void errorToast(result.code);
    else if (mode === 'button') toast.show({ type: 'info', message: t('passkey.cancelled') });
  };

  // After hydration: the WebAuthn code, and the browser's autofill offering this site's passkeys
  // under the email field (conditional mediation) for as long as the page is open.
  useEffect(() => {
    if (!passkeysSupported()) {
      setPasskeysOffered(false);
      return;
    }
    let left = false;
    void loadPasskeys().then(async (loaded) => {
      if (left) return;
      setPasskeys(() => loaded);
      if (!(await loaded.autofillOffered()) || left) return;
      const result = await loaded.signInWithPasskey('autofill');
      if (!left) passkeyOutcome(result, 'autofill');
    });
    return () => {
      left = true;
      void loadPasskeys().then((loaded) => loaded.cancelCeremony());
    };
  }, []);

  const passkeyButton = async () => {
    if (!passkeys) return;
    setPasskeyBusy(true);
    try {
      passkeyOutcome(await passkeys.signInWithPasskey('button'), 'button');
    } finally {
      setPasskeyBusy(false);
    }
  };

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
      setPending({
        token: result.data.pending,
        passkey: result.data.passkey === true,
        totp: result.data.totp !== false,
      });
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
        lead={pending.totp ? t('secondStep.lead') : t('secondStep.leadRecovery')}
        other={{ question: t('noAccount'), label: t('register'), page: 'register' }}
      >
        <SecondStep
          pending={pending.token}
          onSignedIn={signedIn}
          onRestart={() => setPending(null)}
          recoveryOnly={!pending.totp}
          onPasskey={pending.passkey && passkeys ? passkeyButton : undefined}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('title')}
      lead={t('lead')}
      other={{ question: t('noAccount'), label: t('register'), page: 'register' }}
      plain
    >
      <Form onSubmit={submit} action={ACCOUNT_API.login}>
        {/* "webauthn": the browser may offer this site's passkeys among the address suggestions. */}
        <TextField field={form.field('email')} label={t('email')} type="email" autoComplete="username webauthn" />
        <PasswordField field={form.field('password')} label={t('password')} autoComplete="current-password" />
        <p className="form__aside">
          <a href={pagePath(lang, 'forgotPassword')}>{t('forgotLink')}</a>
        </p>
        <SubmitButton busy={form.busy}>{t('submit')}</SubmitButton>
      </Form>
      {/* Laid out from the first paint, shown once the WebAuthn code is here: nothing moves when it comes. */}
      {passkeysOffered && (
        <div className={`form__secondary${passkeys ? '' : ' auth__waiting'}`}>
          <p>{t('passkey.or')}</p>
          <button
            type="button"
            className="button button--secondary"
            onClick={passkeyButton}
            disabled={passkeyBusy}
            aria-busy={passkeyBusy || undefined}
          >
            {t('passkey.button')}
          </button>
        </div>
      )}
      <ProviderSignIn />
    </AuthCard>
  );
}
