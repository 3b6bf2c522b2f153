import { signInPath } from '#client/console/api.ts';
import type { ApiResult } from '#client/lib/api-client.ts';
import { type ErrorCode, isErrorCode } from '#common/error-codes.ts';
import { BRAND_API, type BrandAnswer, type BrandChange } from '#common/site-brand.ts';

/** Longer than a full render of the site takes on a busy instance: the answer waits for it. */
const TIMEOUT_MS = 60_000;

/**
 * A brand call: unlike the console's other calls it changes with PUT and DELETE, and the logo goes
 * as the image itself. Failures come back as error codes as `callApi`'s do, and a session that
 * ended on the way sends the admin to sign in again.
 */
async function brandCall(method: 'GET' | 'PUT' | 'DELETE', path: string, body?: Blob | string, type?: string) {
  let result: ApiResult<BrandAnswer>;
  try {
    const response = await fetch(path, {
      method,
      headers: type ? { 'Content-Type': type } : {},
      body,
      credentials: 'same-origin',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const payload: unknown = await response.json().catch(() => null);
    const error = (payload as { error?: { code?: unknown; fields?: Record<string, ErrorCode> } } | null)?.error;
    if (response.ok) result = { ok: true, data: payload as BrandAnswer };
    else if (isErrorCode(error?.code)) result = { ok: false, code: error.code, fields: error.fields };
    else if (response.status === 413) result = { ok: false, code: 'LOGO_TOO_LARGE' };
    else result = { ok: false, code: response.status >= 500 ? 'SERVER_ERROR' : 'UNKNOWN_ERROR' };
  } catch (error) {
    result = { ok: false, code: (error as Error).name === 'TimeoutError' ? 'REQUEST_TIMEOUT' : 'NETWORK_ERROR' };
  }
  if (!result.ok && (result.code === 'UNAUTHORIZED' || result.code === 'SESSION_EXPIRED')) {
    window.location.assign(signInPath());
  }
  if (!result.ok && result.code === 'SECOND_FACTOR_REQUIRED') window.location.reload();
  return result;
}

export const readBrand = () => brandCall('GET', BRAND_API.brand);

export const changeBrand = (change: BrandChange) =>
  brandCall('PUT', BRAND_API.brand, JSON.stringify(change), 'application/json');

/** The logo file as chosen; a file the browser has no type for is named by its extension. */
export function sendLogo(file: File) {
  const type = file.type || (/\.svg$/i.test(file.name) ? 'image/svg+xml' : 'image/png');
  return brandCall('PUT', BRAND_API.logo, file, type);
}

export const removeLogo = () => brandCall('DELETE', BRAND_API.logo, '{}', 'application/json');
