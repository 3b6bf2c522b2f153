import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { returnPath } from '#client/features/accounts/index.ts';
import { Form, SubmitButton, TextField, useForm } from '#client/features/forms/index.ts';
import { loadPasskeys, passkeysSupported } from '#client/features/passkeys/index.ts';
import { useAddress, useLanguage } from '#client/lib/address.tsx';
import { type ApiResult, callApi } from '#client/lib/api-client.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { PASSKEY_API, type PasskeyAnswer, type PasskeysAnswer } from '#common/passkey-api.ts';
import { OwnerProof, useOwnerProof } from './reauthentication.tsx';
import { RecoveryCodes } from './TwoFactorSection.tsx';

const nameAndPassword = () =>
  Promise.all([import('#common/passkey-schemas.ts'), import('#common/account-schemas.ts')]).then(([p, a]) => ({
    name: p.PasskeyNameSchema,
    password: a.CurrentPasswordSchema,
  }));
const nameOnly = () => import('#common/passkey-schemas.ts').then((p) => ({ name: p.PasskeyNameSchema }));
const passwordOnly = () => import('#common/account-schemas.ts').then((a) => ({ password: a.CurrentPasswordSchema }));

type Editing = { kind: 'rename' | 'remove'; passkey: PasskeyAnswer } | null;
type Handled = <T>(result: ApiResult<T>) => ApiResult<T> | undefined;

/**
 * Passkeys on the account page: the list (name, when added, when last used), adding one (a name
 * and the password; the WebAuthn code is loaded when the form is sent), renaming, and removing
 * with the password. The first second factor brings recovery codes, shown once. `onCount` tells
 * the page how many there are (staff with one need no other second factor).
 */
export function PasskeysSection({
  email,
  failed,
  onCount,
}: {
  email: string;
  failed: (code: ErrorCode) => void;
  onCount: (count: number) => void;
}) {
  const { t } = useTranslation('login');
  const lang = useLanguage();
  const toast = useToast();
  const consolePath = returnPath(useAddress().search);
  const [list, setList] = useState<PasskeyAnswer[] | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [supported, setSupported] = useState(true);
  const heading = useRef<HTMLHeadingElement>(null);

  const load = () =>
    callApi<PasskeysAnswer>(PASSKEY_API.list).then((result) => {
      if (!result.ok) return failed(result.code);
      setList(result.data.passkeys);
      onCount(result.data.passkeys.length);
    });
  useEffect(() => {
    setSupported(passkeysSupported());
    void load();
  }, []);

  /** A change replaces what was shown: the section's heading takes the focus, as in two-step verification. */
  const settle = (message?: string) => {
    if (message) toast.show({ type: 'success', message });
    setEditing(null);
    void load();
    requestAnimationFrame(() => heading.current?.focus());
  };

  const handled: Handled = (result) => {
    if (!result.ok && (result.code === 'UNAUTHORIZED' || result.code === 'SESSION_EXPIRED')) {
      failed(result.code);
      return undefined;
    }
    return result;
  };

  const dateOf = (iso: string) => new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(new Date(iso));

  return (
    <section aria-labelledby="account-passkeys" id="passkeys">
      <h2 id="account-passkeys" ref={heading} tabIndex={-1}>
        {t('account.passkeys.title')}
      </h2>
      <p>{t('account.passkeys.text')}</p>
      {codes ? (
        <RecoveryCodes
          codes={codes}
          email={email}
          consolePath={consolePath}
          onDone={() => {
            setCodes(null);
            settle();
          }}
        />
      ) : (
        list && (
          <>
            {list.length === 0 ? (
              <p>{t('account.passkeys.none')}</p>
            ) : (
              <ul className="account__list" aria-label={t('account.passkeys.listLabel')}>
                {list.map((passkey) => (
                  <li key={passkey.id}>
                    {editing?.passkey.id === passkey.id ? (
                      editing.kind === 'rename' ? (
                        <RenameForm passkey={passkey} handled={handled} onDone={settle} />
                      ) : (
                        <RemoveForm passkey={passkey} handled={handled} onDone={settle} />
                      )
                    ) : (
                      <>
                        <span>
                          <strong>{passkey.name}</strong>
                          <br />
                          {t('account.passkeys.added', { date: dateOf(passkey.createdAt) })}
                          <br />
                          {passkey.lastUsedAt
                            ? t('account.passkeys.lastUsed', { date: dateOf(passkey.lastUsedAt) })
                            : t('account.passkeys.neverUsed')}
                        </span>
                        <span className="actions">
                          <button
                            type="button"
                            className="button button--secondary button--small"
                            aria-label={`${t('account.passkeys.rename')}: ${passkey.name}`}
                            onClick={() => setEditing({ kind: 'rename', passkey })}
                          >
                            {t('account.passkeys.rename')}
                          </button>
                          <button
                            type="button"
                            className="button button--secondary button--small"
                            aria-label={`${t('account.passkeys.remove')}: ${passkey.name}`}
                            onClick={() => setEditing({ kind: 'remove', passkey })}
                          >
                            {t('account.passkeys.remove')}
                          </button>
                        </span>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {consolePath && list.length > 0 && (
              <p>
                <a className="button" href={consolePath}>
                  {t('account.twoFactor.backToConsole')}
                </a>
              </p>
            )}
            {supported ? (
              <AddForm
                handled={handled}
                onAdded={(recoveryCodes) => {
                  toast.show({ type: 'success', message: t('account.passkeys.done') });
                  if (recoveryCodes) {
                    setCodes(recoveryCodes);
                    requestAnimationFrame(() => heading.current?.focus());
                  } else settle();
                }}
              />
            ) : (
              <p>{t('account.passkeys.unsupported')}</p>
            )}
          </>
        )
      )}
    </section>
  );
}

function AddForm({ handled, onAdded }: { handled: Handled; onAdded: (recoveryCodes: string[] | null) => void }) {
  const { t } = useTranslation('login');
  const { t: ts } = useTranslation('settings');
  const toast = useToast();
  const form = useForm('passkey-add', { name: '', password: '' }, nameAndPassword, {
    codeFields: { INVALID_PASSKEY_NAME: 'name' },
  });
  const proof = useOwnerProof();
  const submit = form.action(proof.checked(['name', 'password'] as const), async (values) => {
    // Not confirmed yet: said before the browser makes a passkey the server would then refuse.
    if (!proof.ready) return { ok: false, code: 'REAUTHENTICATION_REQUIRED' } as const;
    // The WebAuthn code comes now, when it is needed, not with the page.
    const passkeys = await loadPasskeys();
    const added = await passkeys.addPasskey(values.name, proof.passwordless ? undefined : values.password);
    if (added === null) {
      toast.show({ type: 'info', message: t('account.passkeys.cancelled') });
      return undefined;
    }
    proof.settle(added);
    const result = handled(added);
    if (result?.ok) {
      form.set('name', '');
      form.set('password', '');
      onAdded(result.data.recoveryCodes);
      return undefined;
    }
    return result;
  });
  return (
    <>
      <h3>{t('account.passkeys.add')}</h3>
      <p>{proof.passwordless ? ts('reauth.addText') : t('account.passkeys.addText')}</p>
      <Form onSubmit={submit}>
        <TextField field={form.field('name')} label={t('account.passkeys.name')} autoComplete="off" maxLength={60} />
        <OwnerProof target="passkeys" field={form.field('password')} label={t('account.passkeys.password')} />
        <SubmitButton busy={form.busy}>{t('account.passkeys.addSubmit')}</SubmitButton>
      </Form>
    </>
  );
}

function RenameForm({
  passkey,
  handled,
  onDone,
}: {
  passkey: PasskeyAnswer;
  handled: Handled;
  onDone: (message?: string) => void;
}) {
  const { t } = useTranslation('login');
  const form = useForm('passkey-rename', { name: passkey.name }, nameOnly, {
    codeFields: { INVALID_PASSKEY_NAME: 'name' },
  });
  useEffect(() => form.focus('name'), []);
  const submit = form.submit(async (values) => {
    const result = handled(await callApi(PASSKEY_API.rename, { id: passkey.id, name: values.name }));
    if (result?.ok) onDone(t('account.passkeys.renamed'));
    return result?.ok ? undefined : result;
  });
  return (
    <Form onSubmit={submit}>
      <TextField
        field={form.field('name')}
        label={t('account.passkeys.renameLabel', { name: passkey.name })}
        autoComplete="off"
        maxLength={60}
      />
      <p className="actions">
        <SubmitButton busy={form.busy}>{t('account.passkeys.save')}</SubmitButton>
        <button type="button" className="button button--secondary" onClick={() => onDone()}>
          {t('account.passkeys.cancel')}
        </button>
      </p>
    </Form>
  );
}

function RemoveForm({
  passkey,
  handled,
  onDone,
}: {
  passkey: PasskeyAnswer;
  handled: Handled;
  onDone: (message?: string) => void;
}) {
  const { t } = useTranslation('login');
  const { t: ts } = useTranslation('settings');
  const form = useForm('passkey-remove', { password: '' }, passwordOnly);
  const proof = useOwnerProof();
  const box = useRef<HTMLDivElement>(null);
  // Into the form as it opens: the password, or what stands in for it.
  useEffect(() => {
    if (!proof.passwordless) return form.focus('password');
    box.current?.querySelector<HTMLElement>('.account__reauth button, button[type="submit"]')?.focus();
  }, []);
  const submit = form.action(proof.checked(['password'] as const), async (values) => {
    const answer = await callApi(PASSKEY_API.remove, { id: passkey.id, ...proof.body(values) });
    proof.settle(answer);
    const result = handled(answer);
    if (result?.ok) onDone(t('account.passkeys.removed'));
    return result?.ok ? undefined : result;
  });
  return (
    <div ref={box}>
      <Form onSubmit={submit}>
        <h3>{t('account.passkeys.removeTitle', { name: passkey.name })}</h3>
        <p>{proof.passwordless ? ts('reauth.removeText') : t('account.passkeys.removeText')}</p>
        <OwnerProof target="passkeys" field={form.field('password')} label={t('account.passkeys.password')} />
        <p className="actions">
          <SubmitButton busy={form.busy} danger>
            {t('account.passkeys.removeSubmit')}
          </SubmitButton>
          <button type="button" className="button button--secondary" onClick={() => onDone()}>
            {t('account.passkeys.cancel')}
          </button>
        </p>
      </Form>
    </div>
  );
}
