import type { ApiResult } from '#client/lib/api-client.ts';

/**
 * A session lives in a cookie, so a browser that refuses this site's cookies cannot stay signed
 * in: the pages that sign someone in say so (FINGERPRINT_REQUIRED, "allow cookies for this site")
 * before they try, instead of a sign-in that seems to work and is forgotten at the next page.
 */
export function cookiesRefused(): Extract<ApiResult<never>, { ok: false }> | null {
  return navigator.cookieEnabled === false ? { ok: false, code: 'FINGERPRINT_REQUIRED' } : null;
}
