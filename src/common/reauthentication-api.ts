import type { ProviderSummary } from './identity-api.ts';

/**
 * Confirming a sensitive change by signing in again at a linked identity provider, for an account
 * without a password (docs/decisions/220). `start` answers with the provider's address to send the
 * browser to; the provider's callback comes back to the account page.
 */
export const REAUTHENTICATION_API = {
  start: '/api/auth/oidc/reauthenticate',
  state: '/api/account/reauthentication',
} as const;

/** How long a re-authentication stands in for the password; the change it allows spends it. */
export const REAUTHENTICATION_MINUTES = 5;

/** Where on the account page a re-authentication was asked for: the browser is sent back there. */
export const REAUTHENTICATION_TARGETS = ['password', 'email', 'two-factor', 'passkeys', 'delete'] as const;
export type ReauthenticationTarget = (typeof REAUTHENTICATION_TARGETS)[number];

/** The value of the account page's `oidc` parameter after a re-authentication went through. */
export const REAUTHENTICATED = 'reauthenticated';
/** The account page's parameter that names the target to go back to. */
export const REAUTHENTICATION_TARGET_PARAM = 'confirmed';

export interface ReauthenticationAnswer {
  /** The account has no password: its sensitive changes are confirmed at a provider. */
  passwordless: boolean;
  /** The linked providers it can confirm with (those the company still offers). */
  providers: ProviderSummary[];
  /** Until when the last re-authentication of this session stands in for the password, if it does. */
  until: string | null;
}

export interface ReauthenticateAnswer {
  url: string;
}
