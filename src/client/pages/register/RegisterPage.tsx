import { useTranslation } from 'react-i18next';
import { AuthCard } from '#client/features/accounts/index.ts';
import { CheckboxField, Form, PasswordField, SubmitButton, TextField, useForm } from '#client/features/forms/index.ts';
import { navigate, useLanguage } from '#client/lib/address.tsx';
import { callApi } from '#client/lib/api-client.ts';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { useToast } from '#client/lib/toast/use-toast.ts';
import { ACCOUNT_API, type RegisterAnswer } from '#common/account-api.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#common/field-bounds.ts';
import { LANGUAGE_COUNTRY } from '#common/languages.ts';
import type { PhoneCountry } from '#common/phone-countries.ts';
import { pagePath } from '#common/routes.ts';
import { PhoneCountryField } from './PhoneCountryField.tsx';

/**
 * The country the phone number is read in, as the form holds it: the phone field's rule reads it
 * when it judges the number, so that a change of country judges the number again.
 */
const phoneCountry: { current: PhoneCountry | undefined } = { current: undefined };

/**
 * The fields' rules, imported after hydration: zod is not needed to show the form or take a
 * keystroke, and the phone library (in phone.ts) is loaded by this page only, with them.
 */
const rules = () =>
  Promise.all([
    import('#common/fields.ts'),
    import('#common/account-schemas.ts'),
    import('#common/register-schema.ts'),
    import('#common/phone.ts'),
  ]).then(([f, s, r, p]) => ({
    name: f.NameSchema,
    email: f.EmailSchema,
    phone: { safeParse: (value: unknown) => p.phoneSchema(phoneCountry.current).safeParse(value) },
    password: s.PasswordSchema,
    acceptTerms: r.AcceptTermsSchema,
  }));

export default function RegisterPage() {
  const { t } = useTranslation('register');
  const lang = useLanguage();
  const toast = useToast();
  const { minimumAge } = useSiteConfig().accounts;
  const form = useForm(
    'register',
    {
      name: '',
      email: '',
      phoneCountry: LANGUAGE_COUNTRY[lang] as string,
      phone: '',
      password: '',
      acceptTerms: false,
      website: '',
    },
    rules,
    { visitor: true },
  );

  const submit = form.submit(async (values) => {
    const result = await callApi<RegisterAnswer>(ACCOUNT_API.register, { ...values, language: lang });
    if (!result.ok) return result;
    toast.show({ type: 'success', message: t('created', { email: result.data.email }) });
    navigate(pagePath(lang, 'validation'), { state: { email: result.data.email } });
  });
  const honeypot = form.field('website');
  phoneCountry.current = form.values.phoneCountry as PhoneCountry;

  return (
    <AuthCard
      title={t('title')}
      lead={t('lead')}
      other={{ question: t('haveAccount'), label: t('login'), page: 'login' }}
      plain
    >
      <Form onSubmit={submit} action={ACCOUNT_API.register}>
        <TextField field={form.field('name')} label={t('name')} autoComplete="name" />
        <TextField field={form.field('email')} label={t('email')} type="email" autoComplete="email" />
        <PhoneCountryField field={form.field('phoneCountry')} label={t('phoneCountry')} language={lang} />
        <TextField field={form.field('phone')} label={t('phone')} type="tel" autoComplete="tel" hint={t('phoneHint')} />
        <PasswordField
          field={form.field('password')}
          label={t('password')}
          autoComplete="new-password"
          hint={t('passwordHint', { count: PASSWORD_MAX_LENGTH, min: PASSWORD_MIN_LENGTH })}
          showStrength
        />
        <CheckboxField
          field={form.field('acceptTerms')}
          label={t('acceptTerms', { count: minimumAge })}
          after={
            <>
              <a href={pagePath(lang, 'terms')}>{t('termsLink')}</a>
              {' · '}
              <a href={pagePath(lang, 'privacy')}>{t('privacyLink')}</a>
            </>
          }
        />
        {/* People never see this field; a robot filling in every input does. */}
        <div className="honeypot" aria-hidden="true">
          <label htmlFor={honeypot.id}>{t('honeypot')}</label>
          <input
            id={honeypot.id}
            name={honeypot.name}
            type="text"
            tabIndex={-1}
            autoComplete="off"
            value={String(honeypot.value)}
            onChange={(event) => honeypot.onChange(event.target.value)}
          />
        </div>
        <SubmitButton busy={form.busy}>{t('submit')}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
