// Passkeys in the browser. The WebAuthn code is loaded on demand, after the first paint, by the
// pages that use it (sign-in, account): nothing here is imported statically by a page.

/** Loads the WebAuthn ceremonies (with @simplewebauthn/browser). */
export const loadPasskeys = () => import('./ceremonies.ts');

export type Passkeys = Awaited<ReturnType<typeof loadPasskeys>>;

/** Whether this browser has WebAuthn at all: without it, the pages offer no passkey. */
export const passkeysSupported = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
