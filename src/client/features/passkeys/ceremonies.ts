import {
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
} from '@simplewebauthn/browser';
import { type ApiResult, callApi } from '#client/lib/api-client.ts';
import type { LoginAnswer } from '#common/account-api.ts';
import {
  type AddOptionsAnswer,
  PASSKEY_API,
  type PasskeyAddedAnswer,
  type SignInOptionsAnswer,
} from '#common/passkey-api.ts';

/**
 * The WebAuthn ceremonies, with @simplewebauthn/browser: loaded by the sign-in and account pages
 * after their first paint, never by a public page. Each asks the server for a challenge, hands it
 * to the browser, and sends the answer back with the token that names the challenge. `null` means
 * the browser gave no passkey: the visitor cancelled, or none was there.
 */

/** Signs in with a passkey: from the button, or (`autofill`) offered among the email field's suggestions. */
export async function signInWithPasskey(mode: 'button' | 'autofill'): Promise<ApiResult<LoginAnswer> | null> {
  const asked = await callApi<SignInOptionsAnswer>(PASSKEY_API.signInOptions, {});
  if (!asked.ok) return asked;
  let response: Awaited<ReturnType<typeof startAuthentication>>;
  try {
    response = await startAuthentication({ optionsJSON: asked.data.options, useBrowserAutofill: mode === 'autofill' });
  } catch {
    return null;
  }
  // The sign-in itself takes the visitor identifier, as the password's does. Asked for only now: the
  // autofill's challenge is fetched as the page opens, and the identifier is not started for it.
  const visitor = await import('#client/features/visitor/index.ts');
  await visitor.beforeVisitorCall();
  return callApi<LoginAnswer>(PASSKEY_API.signIn, { ceremony: asked.data.ceremony, response });
}

/**
 * Makes a passkey for the signed-in account and adds it under `name`, confirmed with the password
 * (left out by an account without one, which confirmed at its provider).
 */
export async function addPasskey(
  name: string,
  password: string | undefined,
): Promise<ApiResult<PasskeyAddedAnswer> | null> {
  const asked = await callApi<AddOptionsAnswer>(PASSKEY_API.addOptions, {});
  if (!asked.ok) return asked;
  let response: Awaited<ReturnType<typeof startRegistration>>;
  try {
    response = await startRegistration({ optionsJSON: asked.data.options });
  } catch {
    return null;
  }
  return callApi<PasskeyAddedAnswer>(PASSKEY_API.add, { ceremony: asked.data.ceremony, name, password, response });
}

/** Whether the browser offers passkeys among an input's autofill suggestions (conditional mediation). */
export const autofillOffered = () => browserSupportsWebAuthnAutofill();

/** Ends a ceremony under way (the autofill's, when the page is left). */
export const cancelCeremony = () => WebAuthnAbortService.cancelCeremony();
