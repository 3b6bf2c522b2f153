import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, PasswordField, SubmitButton, useForm } from '#client/features/forms/index.ts';
import { callApi } from '#client/lib/api-client.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import { ACCOUNT_SETTINGS_API, type EndedSessionsAnswer } from '#common/account-settings-api.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { OwnerProof, useOwnerProof } from './reauthentication.tsx';

/** The fields' rules, imported when a field is first used: the current password is any text, the new one follows registration's rules. */
const rules = () =>
  import('#common/account-schemas.ts').then((s) => ({
    currentPassword: s.CurrentPasswordSchema,
    newPassword: s.PasswordSchema,
  }));

const SESSION_LOST: readonly ErrorCode[] = ['UNAUTHORIZED', 'SESSION_EXPIRED'];

/**
 * A new password, given the current one. The server signs out every other session and mails the
 * owner; `onChanged` lets the page read its session list again.
 */
export function PasswordSection({ failed, onChanged }: { failed: (code: ErrorCode) => void; onChanged: () => void }) {
  const { t } = useTranslation('settings');
  // A new form after each change: empty fields that have not been touched, so no message shows.
  const [round, setRound] = useState(0);
  // An account made by a provider has none yet: it sets its first one, confirmed at the provider.
  const { passwordless } = useOwnerProof();
  return (
    <section aria-labelledby="account-password" className="account__form">
      <h2 id="account-password">{passwordless ? t('reauth.passwordTitle') : t('password.title')}</h2>
      <p>{passwordless ? t('reauth.passwordText') : t('password.text')}</p>
      <PasswordForm
        key={round}
        failed={failed}
        onChanged={() => {
          setRound((n) => n + 1);
          onChanged();
        }}
      />
    </section>
  );
}

function PasswordForm({ failed, onChanged }: { failed: (code: ErrorCode) => void; onChanged: () => void }) {
  const { t } = useTranslation('settings');
  const toast = useToast();
  const form = useForm('change-password', { currentPassword: '', newPassword: '' }, rules);
  const proof = useOwnerProof();
  const submit = form.action(
    proof.passwordless ? ['newPassword'] : ['currentPassword', 'newPassword'],
    async (values) => {
      const body = proof.passwordless ? { newPassword: values.newPassword } : values;
      const result = await callApi<EndedSessionsAnswer>(ACCOUNT_SETTINGS_API.changePassword, body);
      proof.settle(result);
      if (result.ok) {
        const { ended } = result.data;
        const done = proof.passwordless ? t('reauth.passwordSet') : t('password.done');
        toast.show({ type: 'success', message: ended ? t('password.doneOthers', { count: ended }) : done });
        if (proof.passwordless) proof.reload();
        onChanged();
        return undefined;
      }
      if (!SESSION_LOST.includes(result.code)) return result;
      failed(result.code);
      return undefined;
    },
  );
  return (
    <Form onSubmit={submit}>
      <OwnerProof target="password" field={form.field('currentPassword')} label={t('password.current')} />
      <PasswordField
        field={form.field('newPassword')}
        label={t('password.new')}
        autoComplete="new-password"
        showStrength
      />
      <SubmitButton busy={form.busy}>
        {proof.passwordless ? t('reauth.passwordSubmit') : t('password.submit')}
      </SubmitButton>
    </Form>
  );
}
