import { type ApiOptions, type ApiResult, callApi } from '#client/lib/api-client.ts';
import { DEFAULT_LANGUAGE, isLanguage } from '#common/languages.ts';

/** The sign-in page in the console's language, with the way back to where the staff member was. */
export function signInPath(): string {
  const language = isLanguage(document.documentElement.lang) ? document.documentElement.lang : DEFAULT_LANGUAGE;
  const next = window.location.pathname;
  return `/${language}/login?next=${encodeURIComponent(next)}`;
}

/**
 * Calls the console API; a session that ended on the way sends the staff member to sign in again,
 * and a second factor removed on the way reloads the console, which then asks for one.
 */
export async function consoleCall<T>(path: string, body?: unknown, options?: ApiOptions): Promise<ApiResult<T>> {
  const result = await callApi<T>(path, body, options);
  if (!result.ok && (result.code === 'UNAUTHORIZED' || result.code === 'SESSION_EXPIRED')) {
    window.location.assign(signInPath());
  }
  if (!result.ok && result.code === 'SECOND_FACTOR_REQUIRED') window.location.reload();
  return result;
}

/** A query string from the filters that are set. */
export function queryOf(values: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) query.set(name, value);
  const text = query.toString();
  return text ? `?${text}` : '';
}
