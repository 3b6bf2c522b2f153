import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { returnPath } from '#client/features/accounts/index.ts';
import { Form, SubmitButton, TextField, useForm } from '#client/features/forms/index.ts';
import { useAddress, useLanguage } from '#client/lib/address.tsx';
import { type ApiResult, callApi } from '#client/lib/api-client.ts';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { useToast } from '#client/lib/toast/use-toast.ts';
import {
  ACCOUNT_API,
  type RecoveryCodesAnswer,
  type SecondFactorsAnswer,
  type TotpStartAnswer,
} from '#common/account-api.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { OwnerProof, useOwnerProof } from './reauthentication.tsx';

const codeAndPassword = () =>
  import('#common/account-schemas.ts').then((s) => ({ code: s.OneTimeCodeSchema, password: s.CurrentPasswordSchema }));
const passwordOnly = () => import('#common/account-schemas.ts').then((s) => ({ password: s.CurrentPasswordSchema }));

type View = { kind: 'status' } | { kind: 'enrolling'; start: TotpStartAnswer } | { kind: 'codes'; codes: string[] };

/**
 * Two-step verification on the account page: set up an authenticator app (QR code drawn by the
 * server, the secret as text, confirmed by a first code and the password), the recovery codes
 * shown once with a download and new codes (with the app or a passkey alike), turning the app
 * off, and the browsers trusted to skip the step.
 * `failed` handles a call whose session is gone, as the rest of the page does.
 */
export function TwoFactorSection({
  email,
  failed,
  hasPasskey,
}: {
  email: string;
  failed: (code: ErrorCode) => void;
  /** Whether the passkeys section lists any: when the first comes or the last goes, the state is read again. */
  hasPasskey: boolean;
}) {
  const { t } = useTranslation('login');
  const lang = useLanguage();
  const toast = useToast();
  const { search } = useAddress();
  const consolePath = returnPath(search);
  const [status, setStatus] = useState<SecondFactorsAnswer | null>(null);
  const [view, setView] = useState<View>({ kind: 'status' });
  const heading = useRef<HTMLHeadingElement>(null);
  const proof = useOwnerProof();

  const load = () =>
    callApi<SecondFactorsAnswer>(ACCOUNT_API.secondFactors).then((result) => {
      if (result.ok) setStatus(result.data);
      else failed(result.code);
    });
  // Read again when the first passkey comes or the last one goes: it brings or takes the recovery
  // codes, and a passkey is a second factor (staff who have one are not told to set one up).
  useEffect(() => {
    void load();
  }, [hasPasskey]);
  // Each change of view replaces what the visitor was looking at: the section's heading takes the
  // focus, so keyboard and screen reader users start reading the new state from its top.
  const show = (next: View) => {
    setView(next);
    requestAnimationFrame(() => heading.current?.focus());
  };

  /** A failed call: a lost session goes to sign-in, anything else the form shows. */
  const handled = <T,>(result: ApiResult<T>) => {
    if (!result.ok && (result.code === 'UNAUTHORIZED' || result.code === 'SESSION_EXPIRED')) {
      failed(result.code);
      return undefined;
    }
    return result;
  };

  const begin = async () => {
    const result = await callApi<TotpStartAnswer>(ACCOUNT_API.totpStart, {});
    if (result.ok) show({ kind: 'enrolling', start: result.data });
    else failed(result.code);
  };

  const finishCodes = () => {
    show({ kind: 'status' });
    void load();
  };

  const dateOf = (iso: string) => new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(new Date(iso));

  return (
    <section aria-labelledby="account-two-factor" id="two-factor">
      <h2 id="account-two-factor" ref={heading} tabIndex={-1}>
        {t('account.twoFactor.title')}
      </h2>
      {consolePath && status && !status.totp && !status.passkey && (
        <p className="account__notice">{t('account.twoFactor.staffNeeded')}</p>
      )}
      {view.kind === 'enrolling' ? (
        <Enrolment
          start={view.start}
          handled={handled}
          onDone={(codes) => {
            toast.show({ type: 'success', message: t('account.twoFactor.enabled') });
            show({ kind: 'codes', codes });
          }}
          onCancel={() => show({ kind: 'status' })}
        />
      ) : view.kind === 'codes' ? (
        <RecoveryCodes codes={view.codes} email={email} consolePath={consolePath} onDone={finishCodes} />
      ) : (
        status && (
          <>
            <p>
              {status.totp
                ? t('account.twoFactor.on')
                : status.passkey
                  ? t('account.twoFactor.offWithPasskey')
                  : t('account.twoFactor.off')}
            </p>
            {/* Recovery codes belong to any second factor, the app or a passkey. */}
            {(status.totp || status.passkey) && (
              <p>{t('account.twoFactor.codesLeft', { count: status.recoveryCodesLeft })}</p>
            )}
            {/* An account without a password confirms at its provider before it starts: leaving for
                the provider halfway through would lose the code shown. */}
            {!status.totp &&
              (proof.ready ? (
                <p className="actions">
                  <button type="button" className="button" onClick={begin}>
                    {t('account.twoFactor.start')}
                  </button>
                </p>
              ) : (
                <OwnerProof target="two-factor" />
              ))}
            {consolePath && status.totp && (
              <p>
                <a className="button" href={consolePath}>
                  {t('account.twoFactor.backToConsole')}
                </a>
              </p>
            )}
            {(status.totp || status.passkey) && (
              <NewCodes handled={handled} onDone={(codes) => show({ kind: 'codes', codes })} />
            )}
            {status.totp && (
              <TurnOff
                handled={handled}
                onDone={() => {
                  toast.show({ type: 'success', message: t('account.twoFactor.disabled') });
                  void load();
                }}
              />
            )}
            {status.trustedBrowsers.length > 0 && (
              <>
                <h3>{t('account.twoFactor.trusted.title')}</h3>
                <p>{t('account.twoFactor.trusted.text')}</p>
                <ul className="account__list">
                  {status.trustedBrowsers.map((browser) => {
                    const name = browser.label || t('account.twoFactor.trusted.unknown');
                    const label = browser.current ? t('account.twoFactor.trusted.current', { name }) : name;
                    return (
                      <li key={browser.id}>
                        <span>
                          <strong>{label}</strong>
                          <br />
                          {t('account.twoFactor.trusted.until', { date: dateOf(browser.expiresAt) })}
                        </span>
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          aria-label={`${t('account.twoFactor.trusted.forget')}: ${label}`}
                          onClick={async () => {
                            const result = handled(await callApi(ACCOUNT_API.forgetBrowser, { id: browser.id }));
                            if (result?.ok)
                              toast.show({ type: 'success', message: t('account.twoFactor.trusted.forgotten') });
                            void load();
                          }}
                        >
                          {t('account.twoFactor.trusted.forget')}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </>
            )}
          </>
        )
      )}
    </section>
  );
}

type Handled = <T>(result: ApiResult<T>) => ApiResult<T> | undefined;

/** The QR code and the secret, then the first code and the password to confirm. */
function Enrolment({
  start,
  handled,
  onDone,
  onCancel,
}: {
  start: TotpStartAnswer;
  handled: Handled;
  onDone: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('login');
  const secretId = useId();
  const form = useForm('totp-confirm', { code: '', password: '' }, codeAndPassword, {
    codeFields: { INVALID_CODE: 'code' },
  });
  const proof = useOwnerProof();
  const submit = form.action(proof.checked(['code', 'password'] as const), async (values) => {
    const answer = await callApi<RecoveryCodesAnswer>(ACCOUNT_API.totpConfirm, proof.body(values));
    proof.settle(answer);
    const result = handled(answer);
    if (result?.ok) onDone(result.data.recoveryCodes);
    return result?.ok ? undefined : result;
  });
  return (
    <>
      <p>{t('account.twoFactor.scan')}</p>
      <img
        className="account__qr"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(start.qrSvg)}`}
        alt={t('account.twoFactor.qrAlt')}
        width={192}
        height={192}
      />
      <p id={secretId}>{t('account.twoFactor.manual')}</p>
      <p>
        <code className="account__secret" aria-describedby={secretId}>
          {start.secret.replace(/(.{4})/g, '$1 ').trim()}
        </code>
      </p>
      <Form onSubmit={submit}>
        <TextField
          field={form.field('code')}
          label={t('account.twoFactor.code')}
          autoComplete="one-time-code"
          inputMode="numeric"
        />
        <OwnerProof target="two-factor" field={form.field('password')} label={t('account.twoFactor.password')} />
        <SubmitButton busy={form.busy}>{t('account.twoFactor.confirm')}</SubmitButton>
        <p className="form__aside">
          <button type="button" className="link-button" onClick={onCancel}>
            {t('account.twoFactor.cancel')}
          </button>
        </p>
      </Form>
    </>
  );
}

/** The codes, once: as a list, and as a text file to keep (after the app or the first passkey is added). */
export function RecoveryCodes({
  codes,
  email,
  consolePath,
  onDone,
}: {
  codes: string[];
  email: string;
  consolePath: string | null;
  onDone: () => void;
}) {
  const { t } = useTranslation('login');
  const site = useSiteConfig();
  const file = [t('account.twoFactor.codesFile', { siteName: site.brand.siteName, email }), '', ...codes, ''].join(
    '\n',
  );
  return (
    <>
      <h3>{t('account.twoFactor.codesTitle')}</h3>
      <p>{t('account.twoFactor.codesText')}</p>
      <ul className="account__codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <p className="actions">
        <a
          className="button button--secondary"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`}
          download={`${site.brand.domain}-recovery-codes.txt`}
        >
          {t('account.twoFactor.download')}
        </a>
        {consolePath ? (
          <a className="button" href={consolePath}>
            {t('account.twoFactor.backToConsole')}
          </a>
        ) : (
          <button type="button" className="button" onClick={onDone}>
            {t('account.twoFactor.codesSaved')}
          </button>
        )}
      </p>
    </>
  );
}

function NewCodes({ handled, onDone }: { handled: Handled; onDone: (codes: string[]) => void }) {
  const { t } = useTranslation('login');
  const { t: ts } = useTranslation('settings');
  const form = useForm('recovery-codes', { password: '' }, passwordOnly);
  const proof = useOwnerProof();
  const submit = form.action(proof.checked(['password'] as const), async (values) => {
    const answer = await callApi<RecoveryCodesAnswer>(ACCOUNT_API.recoveryCodes, proof.body(values));
    proof.settle(answer);
    const result = handled(answer);
    if (result?.ok) onDone(result.data.recoveryCodes);
    return result?.ok ? undefined : result;
  });
  return (
    <>
      <h3>{t('account.twoFactor.renew')}</h3>
      <p>{proof.passwordless ? ts('reauth.renewText') : t('account.twoFactor.renewText')}</p>
      <Form onSubmit={submit}>
        <OwnerProof target="two-factor" field={form.field('password')} label={t('account.twoFactor.password')} />
        <SubmitButton busy={form.busy}>{t('account.twoFactor.renewSubmit')}</SubmitButton>
      </Form>
    </>
  );
}

function TurnOff({ handled, onDone }: { handled: Handled; onDone: () => void }) {
  const { t } = useTranslation('login');
  const { t: ts } = useTranslation('settings');
  const form = useForm('totp-disable', { code: '', password: '' }, codeAndPassword, {
    codeFields: { INVALID_CODE: 'code' },
  });
  const proof = useOwnerProof();
  const submit = form.action(proof.checked(['password', 'code'] as const), async (values) => {
    const answer = await callApi(ACCOUNT_API.totpDisable, proof.body(values));
    proof.settle(answer);
    const result = handled(answer);
    if (result?.ok) onDone();
    return result?.ok ? undefined : result;
  });
  return (
    <>
      <h3>{t('account.twoFactor.disable')}</h3>
      <p>{proof.passwordless ? ts('reauth.disableText') : t('account.twoFactor.disableText')}</p>
      <Form onSubmit={submit}>
        <OwnerProof target="two-factor" field={form.field('password')} label={t('account.twoFactor.password')} />
        <TextField field={form.field('code')} label={t('account.twoFactor.code')} autoComplete="one-time-code" />
        <SubmitButton busy={form.busy} danger>
          {t('account.twoFactor.disableSubmit')}
        </SubmitButton>
      </Form>
    </>
  );
}
