/**
 * Sign-in with OpenID Connect providers and the identities linked to an account. `start` and
 * `callback` are plain addresses the browser is sent to (a link, the provider's redirect), not
 * calls made by script.
 */
export const IDENTITY_API = {
  /** The providers the company configured: the sign-in page's buttons. */
  providers: '/api/auth/oidc/providers',
  start: (provider: string) => `/api/auth/oidc/${provider}/start`,
  callback: (provider: string) => `/api/auth/oidc/${provider}/callback`,
  /** From the account page: where to send the browser to link an identity at a provider. */
  link: '/api/account/identities/link',
  identities: '/api/account/identities',
  unlink: '/api/account/identities/unlink',
} as const;

/**
 * Where `start` sends the visitor back to, in the address's `oidc` parameter: an error code, or
 * `linked` on the account page after linking.
 */
export const IDENTITY_RESULT_PARAM = 'oidc';
/** In the sign-in page's fragment (never sent to a server): a pending sign-in that needs the site's second factor. */
export const PENDING_FRAGMENT = 'pending';

export interface ProviderSummary {
  id: string;
  name: string;
}

export interface LinkAnswer {
  url: string;
}

export interface ProvidersAnswer {
  providers: ProviderSummary[];
}

export interface LinkedIdentity {
  id: string;
  /** The configured provider this identity belongs to, or null when the company no longer offers it. */
  provider: ProviderSummary | null;
  issuer: string;
  email: string | null;
  linkedAt: string;
}

/** The account's identities, the providers it can still link, and whether it has a password to sign in with. */
export interface IdentitiesAnswer {
  identities: LinkedIdentity[];
  linkable: ProviderSummary[];
  hasPassword: boolean;
}
