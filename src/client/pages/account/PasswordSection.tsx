import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, PasswordField, SubmitButton, useForm } from '#client/features/forms/index.ts';
import { callApi } from '#client/lib/api-client.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import { ACCOUNT_SETTINGS_API, type EndedSessionsAnswer } from '#common/account-settings-api.ts';
import type { ErrorCode } from '#common/error-codes.ts';

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
  return (
    <section aria-labelledby="account-password" className="account__form">
      <h2 id="account-password">{t('password.title')}</h2>
      <p>{t('password.text')}</p>
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
  const submit = form.submit(async (values) => {
    const result = await callApi<EndedSessionsAnswer>(ACCOUNT_SETTINGS_API.changePassword, values);
    if (result.ok) {
      const { ended } = result.data;
      toast.show({ type: 'success', message: ended ? t('password.doneOthers', { count: ended }) : t('password.done') });
      onChanged();
      return undefined;
    }
    if (!SESSION_LOST.includes(result.code)) return result;
    failed(result.code);
    return undefined;
  });
  return (
    <Form onSubmit={submit}>
      <PasswordField
        field={form.field('currentPassword')}
        label={t('password.current')}
        autoComplete="current-password"
      />
      <PasswordField
        field={form.field('newPassword')}
        label={t('password.new')}
        autoComplete="new-password"
        showStrength
      />
      <SubmitButton busy={form.busy}>{t('password.submit')}</SubmitButton>
    </Form>
  );
}
