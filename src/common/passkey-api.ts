import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

/** The passkey endpoints, named once for the server, the browser and the tests. */
export const PASSKEY_API = {
  /** The account's passkeys, for its page. */
  list: '/api/account/passkeys',
  addOptions: '/api/account/passkeys/options',
  add: '/api/account/passkeys/add',
  rename: '/api/account/passkeys/rename',
  remove: '/api/account/passkeys/remove',
  signInOptions: '/api/auth/passkey/options',
  signIn: '/api/auth/passkey',
} as const;

/** At most this many passkeys per account: enough for every device and a spare key. */
export const PASSKEYS_PER_ACCOUNT = 10;
export const PASSKEY_NAME_MAX_LENGTH = 60;

export interface PasskeyAnswer {
  id: string;
  name: string;
  createdAt: string;
  /** Null until it is first used to sign in. */
  lastUsedAt: string | null;
}

export interface PasskeysAnswer {
  passkeys: PasskeyAnswer[];
}

/**
 * A challenge for the browser, and the token that names it: the page sends the token back with
 * the browser's answer, within a few minutes, once.
 */
export interface AddOptionsAnswer {
  ceremony: string;
  options: PublicKeyCredentialCreationOptionsJSON;
}

export interface SignInOptionsAnswer {
  ceremony: string;
  options: PublicKeyCredentialRequestOptionsJSON;
}

/** A passkey added; with the account's first second factor come its recovery codes, shown once. */
export interface PasskeyAddedAnswer {
  passkey: PasskeyAnswer;
  recoveryCodes: string[] | null;
}

export type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
};
