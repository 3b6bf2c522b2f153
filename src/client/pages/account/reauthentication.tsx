import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FieldState, PasswordField } from '#client/features/forms/index.ts';
import { useAddress, useLanguage } from '#client/lib/address.tsx';
import { type ApiResult, callApi } from '#client/lib/api-client.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { IDENTITY_RESULT_PARAM, type ProviderSummary } from '#common/identity-api.ts';
import {
  REAUTHENTICATED,
  REAUTHENTICATION_API,
  REAUTHENTICATION_MINUTES,
  REAUTHENTICATION_TARGET_PARAM,
  REAUTHENTICATION_TARGETS,
  type ReauthenticateAnswer,
  type ReauthenticationAnswer,
  type ReauthenticationTarget,
} from '#common/reauthentication-api.ts';

/**
 * How the owner proves to be there for a sensitive change on the account page: the password, or,
 * for an account without one, a new sign-in at a linked provider (docs/decisions/220). The page
 * asks once which it is; each form shows the password field or "Confirm with …" in its place.
 */
interface Reauthentication {
  state: ReauthenticationAnswer | null;
  /** Sends the browser to the provider, to come back to `target`; false when it could not. */
  start(provider: ProviderSummary, target: ReauthenticationTarget): Promise<boolean>;
  /** Takes a change's answer: a success spent the confirmation, a refusal says it is gone. */
  settle(result: ApiResult<unknown>): void;
  /** Reads the state again: after a first password, the account has one. */
  reload(): void;
}

const Context = createContext<Reauthentication>({
  state: null,
  start: async () => false,
  settle: () => {},
  reload: () => {},
});

/** What gets the focus back from the provider: the action the visitor was about, or its section. */
const RETURN_FOCUS: Record<ReauthenticationTarget, string> = {
  password: '#change-password-newPassword',
  email: '#change-email-email',
  'two-factor': '#account-two-factor',
  passkeys: '#account-passkeys',
  delete: '.account__danger button[type="submit"]',
};

/**
 * Reads the session's state for the page's forms, and, back from the provider, says how it went
 * and puts the focus on the action again (errors the identities section says, as for linking).
 */
export function ReauthenticationProvider({
  failed,
  children,
}: {
  failed: (code: ErrorCode) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('settings');
  const lang = useLanguage();
  const toast = useToast();
  const { search } = useAddress();
  const [state, setState] = useState<ReauthenticationAnswer | null>(null);
  // Read once, as the page opens: the identities section takes the parameters off the address.
  const [returned] = useState(() => {
    const params = new URLSearchParams(search);
    const target = REAUTHENTICATION_TARGETS.find((known) => known === params.get(REAUTHENTICATION_TARGET_PARAM));
    return target ? { target, confirmed: params.get(IDENTITY_RESULT_PARAM) === REAUTHENTICATED } : null;
  });

  const load = () =>
    callApi<ReauthenticationAnswer>(REAUTHENTICATION_API.state).then((result) => {
      if (result.ok) setState(result.data);
      else failed(result.code);
    });
  useEffect(() => {
    void load();
  }, []);

  useEffect(() => {
    if (!state || !returned) return;
    if (returned.confirmed) {
      toast.show({ type: 'success', message: t('reauth.done', { count: REAUTHENTICATION_MINUTES }) });
    }
    requestAnimationFrame(() => {
      const retry = document.querySelector<HTMLElement>(`[data-reauth-target="${returned.target}"] button`);
      (retry ?? document.querySelector<HTMLElement>(RETURN_FOCUS[returned.target]))?.focus();
    });
  }, [state !== null]);

  const value: Reauthentication = {
    state,
    start: async (provider, target) => {
      const result = await callApi<ReauthenticateAnswer>(REAUTHENTICATION_API.start, {
        provider: provider.id,
        language: lang,
        returnTo: target,
      });
      if (!result.ok) {
        failed(result.code);
        return false;
      }
      window.location.assign(result.data.url);
      return true;
    },
    settle: (result) => {
      if (!state?.passwordless) return;
      if (result.ok) setState({ ...state, until: null });
      else if (result.code === 'REAUTHENTICATION_REQUIRED') void load();
    },
    reload: () => void load(),
  };
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

/**
 * For a form of a sensitive change: whether the account proves itself without a password, the
 * fields to check before sending (without the password then), and the body to send.
 */
export function useOwnerProof() {
  const { state, settle, reload } = useContext(Context);
  const passwordless = state?.passwordless === true;
  return {
    passwordless,
    /** Whether the form can go now: a password to type, or a confirmation that still holds. */
    ready: !passwordless || (state?.until !== null && state?.until !== undefined),
    checked: <N extends string>(names: readonly N[]) =>
      passwordless ? names.filter((name) => name !== 'password') : names,
    body: <V extends { password?: unknown }>(values: V) => {
      if (!passwordless) return values;
      const { password: _, ...rest } = values;
      return rest;
    },
    settle,
    reload,
  };
}

/**
 * The password field of a sensitive change, or, for an account without a password, what stands in
 * for it: a button per linked provider to confirm with, or the note that a confirmation holds.
 * Without a `field`, only the latter (a step that asks for the password later, such as setting up
 * the app, is confirmed before it starts).
 */
export function OwnerProof({
  target,
  field,
  label,
}: {
  target: ReauthenticationTarget;
  field?: FieldState;
  label?: string;
}) {
  const { t } = useTranslation('settings');
  const lang = useLanguage();
  const { state, start } = useContext(Context);
  const [leaving, setLeaving] = useState<string | null>(null);
  if (!state?.passwordless) {
    return field && label ? <PasswordField field={field} label={label} autoComplete="current-password" /> : null;
  }
  if (state.until) {
    const time = new Intl.DateTimeFormat(lang, { timeStyle: 'short' }).format(new Date(state.until));
    return <p className="account__reauth">{t('reauth.confirmed', { time })}</p>;
  }
  if (state.providers.length === 0) return <p className="account__reauth">{t('reauth.noProvider')}</p>;
  return (
    <div className="account__reauth" data-reauth-target={target}>
      <p>{t('reauth.needed', { count: REAUTHENTICATION_MINUTES })}</p>
      <p className="actions">
        {state.providers.map((provider) => (
          <button
            key={provider.id}
            type="button"
            className="button button--secondary"
            onClick={() => {
              setLeaving(provider.name);
              void start(provider, target).then((left) => left || setLeaving(null));
            }}
          >
            {t('reauth.confirm', { name: provider.name })}
          </button>
        ))}
      </p>
      <p role="status">{leaving && t('reauth.leaving', { name: leaving })}</p>
    </div>
  );
}
