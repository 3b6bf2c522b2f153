import { RETENTION } from './retention.ts';

/** The account endpoints, named once for the server, the browser and the tests. */
export const ACCOUNT_API = {
  register: '/api/auth/register',
  verify: '/api/auth/verify',
  resendCode: '/api/auth/resend-code',
  login: '/api/auth/login',
  logout: '/api/auth/logout',
  forgotPassword: '/api/auth/forgot-password',
  resetPassword: '/api/auth/reset-password',
  session: '/api/session',
  account: '/api/account',
  signOutEverywhere: '/api/account/sign-out-everywhere',
  deleteAccount: '/api/account/delete',
  /** The second step of a sign-in: a code from the authenticator app, or a recovery code. */
  loginSecondFactor: '/api/auth/login/second-factor',
  secondFactors: '/api/account/second-factors',
  totpStart: '/api/account/totp/start',
  totpConfirm: '/api/account/totp/confirm',
  totpDisable: '/api/account/totp/disable',
  recoveryCodes: '/api/account/recovery-codes',
  forgetBrowser: '/api/account/trusted-browsers/forget',
} as const;

/** Who is signed in, as far as the header needs to know; `expired` once, when the session just lapsed. */
export interface SessionAnswer {
  /** `staff`: an operator or admin, to whom the header shows the way to the console. */
  account: { name: string; staff?: true } | null;
  expired?: true;
}

/** Registration answers with the address the code went to; the validation page asks for that code. */
export interface RegisterAnswer {
  email: string;
}

/** A confirmed address opens a session at once. */
export interface VerifyAnswer {
  account: { name: string };
}

/**
 * A new password is set. `signInPass` lets this browser sign in even while someone keeps the
 * account's sign-in locked with wrong passwords; send it with the sign-in (it lasts 15 minutes).
 */
export interface ResetAnswer {
  signInPass: string;
}

/**
 * A sign-in either opens a session; or, for an account whose email is not confirmed yet, asks for
 * the mailed code; or, for an account with a second factor, asks for it: `pending` names this
 * half-done sign-in, for this page only (send it with the code, within a few minutes). `passkey`
 * says the account has a passkey, which signs in on its own (with two factors) instead; `totp`
 * that it has an authenticator app (without one, only a recovery code can be typed).
 */
export type LoginAnswer =
  | { status: 'signed-in'; account: { name: string } }
  | { status: 'verification-required' }
  | { status: 'second-factor-required'; pending: string; passkey?: boolean; totp?: boolean };

/** A new authenticator secret to confirm: for the QR code (an SVG drawn by the server) and for typing. */
export interface TotpStartAnswer {
  secret: string;
  uri: string;
  qrSvg: string;
}

/** Recovery codes, shown once: the server keeps only their hashes. */
export interface RecoveryCodesAnswer {
  recoveryCodes: string[];
}

export interface TrustedBrowserAnswer {
  id: string;
  /** Browser and system as the browser named them ("Firefox, Windows"); empty when unknown. */
  label: string;
  createdAt: string;
  expiresAt: string;
  /** The browser asking. */
  current: boolean;
}

/** The account's second factors, for its page. */
export interface SecondFactorsAnswer {
  totp: boolean;
  /** Whether the account has a passkey: a second factor too, with the same recovery codes. */
  passkey: boolean;
  recoveryCodesLeft: number;
  trustedBrowsers: TrustedBrowserAnswer[];
}

export interface AccountAnswer {
  name: string;
  email: string;
  /** Null for staff accounts made without one. */
  phone: string | null;
  createdAt: string;
}

/** How long a mailed code works, and how many tries it allows before a new one is needed. */
export const CODE_LIFETIME_MINUTES = RETENTION.codeMinutes;
export const CODE_MAX_ATTEMPTS = 5;
