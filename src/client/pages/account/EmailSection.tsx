import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, SubmitButton, TextField, useForm } from '#client/features/forms/index.ts';
import { type ApiResult, callApi } from '#client/lib/api-client.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import { CODE_LIFETIME_MINUTES } from '#common/account-api.ts';
import {
  ACCOUNT_SETTINGS_API,
  EMAIL_UNDO_DAYS,
  type EmailChangeConfirmAnswer,
  type EmailChangeStartAnswer,
} from '#common/account-settings-api.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { OwnerProof, useOwnerProof } from './reauthentication.tsx';

const addressRules = () =>
  Promise.all([import('#common/fields.ts'), import('#common/account-schemas.ts')]).then(([f, s]) => ({
    email: f.EmailSchema,
    password: s.CurrentPasswordSchema,
  }));
const codeRules = () => import('#common/account-schemas.ts').then((s) => ({ code: s.CodeSchema }));

const SESSION_LOST: readonly ErrorCode[] = ['UNAUTHORIZED', 'SESSION_EXPIRED'];

/**
 * A new email address: the address and the password, then the code mailed to that address. Until
 * the code comes back the account keeps `email`; `onChanged` hands the page the new one.
 */
export function EmailSection({
  email,
  failed,
  onChanged,
}: {
  email: string;
  failed: (code: ErrorCode) => void;
  onChanged: (email: string) => void;
}) {
  const { t } = useTranslation('settings');
  const toast = useToast();
  // The address a code was sent to, while it waits to be entered.
  const [pending, setPending] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Each step replaces the other: the heading takes the focus, so the new step is read from its top.
  const show = (next: string | null) => {
    setPending(next);
    requestAnimationFrame(() => heading.current?.focus());
  };
  /** A failed call: a lost session goes to sign-in, anything else the form shows. */
  const handled = <T,>(result: ApiResult<T>) => {
    if (!result.ok && SESSION_LOST.includes(result.code)) {
      failed(result.code);
      return undefined;
    }
    return result;
  };

  return (
    <section aria-labelledby="account-email" className="account__form">
      <h2 id="account-email" ref={heading} tabIndex={-1}>
        {t('email.title')}
      </h2>
      {pending === null ? (
        <>
          <p>{t('email.text', { email })}</p>
          <AddressForm handled={handled} onSent={show} />
        </>
      ) : (
        <CodeForm
          pending={pending}
          handled={handled}
          onCancel={() => show(null)}
          onDone={(changed) => {
            toast.show({ type: 'success', message: t('email.done', { email: changed, count: EMAIL_UNDO_DAYS }) });
            onChanged(changed);
            show(null);
          }}
        />
      )}
    </section>
  );
}

type Handled = <T>(result: ApiResult<T>) => ApiResult<T> | undefined;

function AddressForm({ handled, onSent }: { handled: Handled; onSent: (email: string) => void }) {
  const { t } = useTranslation('settings');
  const form = useForm('change-email', { email: '', password: '' }, addressRules);
  const proof = useOwnerProof();
  const submit = form.action(proof.checked(['email', 'password'] as const), async (values) => {
    const answer = await callApi<EmailChangeStartAnswer>(ACCOUNT_SETTINGS_API.emailChangeStart, proof.body(values));
    proof.settle(answer);
    const result = handled(answer);
    if (result?.ok) onSent(result.data.email);
    return result?.ok ? undefined : result;
  });
  return (
    <Form onSubmit={submit}>
      <TextField field={form.field('email')} label={t('email.new')} type="email" autoComplete="email" />
      <OwnerProof target="email" field={form.field('password')} label={t('email.password')} />
      <SubmitButton busy={form.busy}>{t('email.submit')}</SubmitButton>
    </Form>
  );
}

function CodeForm({
  pending,
  handled,
  onCancel,
  onDone,
}: {
  pending: string;
  handled: Handled;
  onCancel: () => void;
  onDone: (email: string) => void;
}) {
  const { t } = useTranslation('settings');
  const form = useForm('confirm-email', { code: '' }, codeRules, { codeFields: { VERIFICATION_FAILED: 'code' } });
  const submit = form.submit(async (values) => {
    const result = handled(await callApi<EmailChangeConfirmAnswer>(ACCOUNT_SETTINGS_API.emailChangeConfirm, values));
    if (result?.ok) onDone(result.data.email);
    return result?.ok ? undefined : result;
  });
  return (
    <>
      <p>{t('email.sent', { email: pending })}</p>
      <Form onSubmit={submit}>
        <TextField
          field={form.field('code')}
          label={t('email.code')}
          hint={t('email.codeHint', { count: CODE_LIFETIME_MINUTES })}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={12}
          className="field__code"
        />
        <SubmitButton busy={form.busy}>{t('email.confirm')}</SubmitButton>
        <p className="form__aside">
          <button type="button" className="link-button" onClick={onCancel}>
            {t('email.cancel')}
          </button>
        </p>
      </Form>
    </>
  );
}
