import { useEffect } from 'react';
import { navigate, useAddress } from '#client/lib/address.tsx';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import { isErrorCode } from '#common/error-codes.ts';
import { IDENTITY_RESULT_PARAM, PENDING_FRAGMENT } from '#common/identity-api.ts';

/**
 * Says what a sign-in at an identity provider came to, once: the server sends the browser back with
 * `?oidc=<error code>`, which this takes off the address again so that a reload does not say it
 * twice. (The account page does the same for links in IdentitiesSection: a module both pages shared
 * was merged by the bundler into a chunk the header loads on every page.)
 */
export function useProviderResult() {
  const { pathname, search } = useAddress();
  const errorToast = useErrorToast();
  useEffect(() => {
    const params = new URLSearchParams(search);
    const result = params.get(IDENTITY_RESULT_PARAM);
    if (!result) return;
    params.delete(IDENTITY_RESULT_PARAM);
    const rest = params.toString();
    navigate(pathname + (rest ? `?${rest}` : ''), { replace: true });
    if (isErrorCode(result)) void errorToast(result);
  }, [search]);
}

/**
 * A sign-in at a provider that needs the site's second factor comes back with its pending token in
 * the fragment (never sent to a server), with whether the account has a passkey and an app: taken
 * off the address and handed to the sign-in page.
 */
export function takePendingFromAddress(): { token: string; passkey: boolean; totp: boolean } | null {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const token = fragment.get(PENDING_FRAGMENT);
  if (!token || !/^[\w-]+$/.test(token)) return null;
  history.replaceState(history.state, '', window.location.pathname + window.location.search);
  return { token, passkey: fragment.get('passkey') === '1', totp: fragment.get('totp') !== '0' };
}
