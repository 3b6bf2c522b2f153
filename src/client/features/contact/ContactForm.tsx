import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField, SubmitButton, TextAreaField, TextField, useForm } from '#client/features/forms/index.ts';
import { callApi } from '#client/lib/api-client.ts';
import { formatNumber } from '#client/lib/formats.ts';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { useToast } from '#client/lib/toast/use-toast.ts';
import {
  CONTACT_API,
  CONTACT_MESSAGE_MAX_LENGTH,
  type ContactAnswer,
  MESSAGE_MIN_LENGTH,
} from '#common/contact-api.ts';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from '#common/field-bounds.ts';
import type { Language } from '#common/languages.ts';
import { pagePath } from '#common/routes.ts';
import { createFormToken } from './form-token.ts';

/**
 * The contact form. As prerendered it is a plain HTML form that posts to the API and works without
 * JavaScript (the browser checks required fields and lengths itself, the server answers with a
 * redirect to the confirmation page). Once the app runs, it checks fields as SPEC §5 says, sends
 * JSON with the form's time stamp, and confirms with a toast.
 */
function Form({ language, onSent }: { language: Language; onSent: () => void }) {
  const { t } = useTranslation('contact');
  const { t: tc } = useTranslation();
  const { subjects } = useSiteConfig().contact;
  const toast = useToast();
  const element = useRef<HTMLFormElement>(null);
  const [token] = useState(createFormToken);
  // The rules are zod: imported when a field is entered, as on the account pages (use-form.ts).
  const rules = useMemo(
    () => () =>
      Promise.all([import('#common/account-schemas.ts'), import('#common/contact-schemas.ts')]).then(
        ([account, contact]) => ({
          name: account.NameSchema,
          email: account.EmailSchema,
          subject: contact.subjectSchema(subjects),
          message: contact.ContactMessageBodySchema,
        }),
      ),
    [subjects],
  );
  const form = useForm('contact', { name: '', email: '', subject: '', message: '', website: '' }, rules);
  const page = pagePath(language, 'contact');

  useEffect(() => {
    // From here on the script checks the fields; without it, the browser does.
    if (element.current) element.current.noValidate = true;
    token.prepare();
  }, [token]);

  const submit = form.submit(async (values) => {
    const ready = await token.ready();
    if (!ready.ok) return ready;
    const result = await callApi<ContactAnswer>(CONTACT_API.messages, {
      ...values,
      language,
      page,
      token: ready.data.token,
    });
    if (!result.ok) return result;
    toast.show({ type: 'success', message: t('form.sent') });
    onSent();
  });
  const honeypot = form.field('website');

  return (
    <form
      ref={element}
      method="post"
      action={CONTACT_API.messages}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p className="form__note">{tc('form.requiredNote')}</p>
      <input type="hidden" name="language" value={language} />
      <input type="hidden" name="page" value={page} />
      <TextField field={form.field('name')} label={t('form.name')} autoComplete="name" maxLength={NAME_MAX_LENGTH} />
      <TextField
        field={form.field('email')}
        label={t('form.email')}
        type="email"
        autoComplete="email"
        maxLength={EMAIL_MAX_LENGTH}
        hint={t('form.emailHint')}
      />
      <SelectField
        field={form.field('subject')}
        label={t('form.subject')}
        placeholder={t('form.choose')}
        options={subjects.map((id) => ({ value: id, label: t(`subjects.${id}` as 'subjects.question') }))}
      />
      <TextAreaField
        field={form.field('message')}
        label={t('form.message')}
        hint={t('form.messageHint', {
          min: formatNumber(language, MESSAGE_MIN_LENGTH),
          max: formatNumber(language, CONTACT_MESSAGE_MAX_LENGTH),
        })}
        rows={8}
        minLength={MESSAGE_MIN_LENGTH}
        maxLength={CONTACT_MESSAGE_MAX_LENGTH}
      />
      {/* People never see this field; a robot filling in every input does. */}
      <div className="honeypot" aria-hidden="true">
        <label htmlFor={honeypot.id}>{t('form.honeypot')}</label>
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
      <SubmitButton busy={form.busy}>{t('form.submit')}</SubmitButton>
    </form>
  );
}

/** The form, emptied after each message sent (a new form, so no field shows an error for being empty). */
export function ContactForm({ language }: { language: Language }) {
  const [sent, setSent] = useState(0);
  return <Form key={sent} language={language} onSent={() => setSent((count) => count + 1)} />;
}
