import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { AuthCard } from '#client/features/auth/AuthCard.tsx';
import { returnPath } from '#client/features/auth/return-to.ts';
import { setSignedIn } from '#client/features/auth/session-store.ts';
import { Form } from '#client/features/forms/Form.tsx';
import { PasswordField } from '#client/features/forms/PasswordField.tsx';
import { SubmitButton } from '#client/features/forms/SubmitButton.tsx';
import { TextField } from '#client/features/forms/TextField.tsx';
import { useForm } from '#client/features/forms/use-form.ts';
import { useToast } from '#client/features/toast/use-toast.ts';
import { callApi } from '#client/lib/api-client.ts';
import { AUTH_API, type LoginAnswer } from '#common/account-api.ts';
import { CurrentPasswordSchema, EmailSchema } from '#common/account-schemas.ts';
import type { Language } from '#common/languages.ts';
import { pagePath } from '#common/routes.ts';

export default function LoginPage() {
  const { t } = useTranslation('login');
  const { lang } = useParams() as { lang: Language };
  const navigate = useNavigate();
  const { search } = useLocation();
  const toast = useToast();
  const form = useForm(
    'login',
    { email: '', password: '' },
    { email: EmailSchema, password: CurrentPasswordSchema },
    { codeFields: { INVALID_CREDENTIALS: 'password' } },
  );

  const submit = form.submit(async (values) => {
    const result = await callApi<LoginAnswer>(AUTH_API.login, { ...values, language: lang });
    if (!result.ok) return result;
    if (result.data.status === 'verification-required') {
      toast.show({ type: 'info', message: t('verifyFirst') });
      navigate(pagePath(lang, 'validation'), { state: { email: values.email } });
    } else {
      setSignedIn(result.data.account);
      // The console is an app of its own: it is loaded, not navigated to.
      const next = returnPath(search);
      if (next) {
        window.location.assign(next);
        return;
      }
      toast.show({ type: 'success', message: t('welcome', { name: result.data.account.name }) });
      navigate(pagePath(lang, 'account'));
    }
  });

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
          <Link to={pagePath(lang, 'forgotPassword')}>{t('forgotLink')}</Link>
        </p>
        <SubmitButton busy={form.busy}>{t('submit')}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
