import { useTranslation } from 'react-i18next';
import { Form, SubmitButton, useForm } from '#client/features/forms/index.ts';
import { useLanguage } from '#client/lib/address.tsx';
import { callApi } from '#client/lib/api-client.ts';
import { ACCOUNT_API } from '#common/account-api.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { pagePath } from '#common/routes.ts';
import { OwnerProof, useOwnerProof } from './reauthentication.tsx';

/** The fields' rules, imported after hydration: zod is not needed to show the form or take a keystroke. */
const rules = () => import('#common/account-schemas.ts').then((s) => ({ password: s.CurrentPasswordSchema }));

const SESSION_LOST: readonly ErrorCode[] = ['UNAUTHORIZED', 'SESSION_EXPIRED'];

/**
 * Deleting the account, with the password (or, without one, a fresh sign-in at a provider): a
 * session left open on a shared computer must not be enough. `onDeleted` sees the visitor out.
 */
export function DeleteAccountSection({
  failed,
  onDeleted,
}: {
  failed: (code: ErrorCode) => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation('login');
  const { t: ts } = useTranslation('settings');
  const lang = useLanguage();
  const deletion = useForm('delete', { password: '' }, rules);
  const proof = useOwnerProof();

  const deleteAccount = deletion.action(proof.checked(['password'] as const), async (values) => {
    const result = await callApi(ACCOUNT_API.deleteAccount, proof.body(values));
    proof.settle(result);
    if (result.ok) {
      onDeleted();
      return undefined;
    }
    // A wrong password belongs under the field; a lost session sends the visitor to sign in.
    if (!SESSION_LOST.includes(result.code)) return result;
    failed(result.code);
    return undefined;
  });

  return (
    <section aria-labelledby="account-delete" className="account__danger">
      <h2 id="account-delete">{t('account.delete.title')}</h2>
      <p>{proof.passwordless ? ts('reauth.deleteText') : t('account.delete.text')}</p>
      <Form onSubmit={deleteAccount}>
        <OwnerProof target="delete" field={deletion.field('password')} label={t('account.delete.password')} />
        {!proof.passwordless && (
          <p className="form__aside">
            <a href={pagePath(lang, 'forgotPassword')}>{t('forgotLink')}</a>
          </p>
        )}
        <SubmitButton busy={deletion.busy} danger>
          {t('account.delete.submit')}
        </SubmitButton>
      </Form>
    </section>
  );
}
