import { type ErrorCode, isErrorCode } from '#common/error-codes.ts';

export type ApiResult<T> = { ok: true; data: T } | ApiFailure;

export interface ApiFailure {
  ok: false;
  code: ErrorCode;
  fields?: Partial<Record<string, ErrorCode>>;
  /** Seconds to wait before trying again, from the answer's Retry-After (TOO_MANY_REQUESTS). */
  retryAfter?: number;
}

/** Retry-After as whole seconds from now: either a number of seconds or an HTTP date. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const date = /GMT$/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** Longer than any answer should take, hashing included, yet short enough that nobody waits in vain. */
const TIMEOUT_MS = 15_000;

/** A method other than the GET (no body) or POST (a body) that `callApi` picks by itself. */
export type ApiMethod = 'PUT' | 'DELETE';

export interface ApiOptions {
  method?: ApiMethod;
  /** For a call whose answer waits on long work (the console's whole-site render). */
  timeoutMs?: number;
  /** The code of a 413 that carries none: a proxy's body limit refused the upload before the server saw it. */
  tooLarge?: ErrorCode;
}

/**
 * Calls the account API. The body goes as JSON, or as itself when it is a file (Blob), typed as
 * the file is. Every failure comes back as an error code from the catalogue, never as an
 * exception: the server's own code when it sent one, NETWORK_ERROR when it could not be reached,
 * REQUEST_TIMEOUT when it was too slow, SERVER_ERROR for a 5xx without a code, UNKNOWN_ERROR else.
 */
export async function callApi<T>(path: string, body?: unknown, options: ApiOptions = {}): Promise<ApiResult<T>> {
  const file = body instanceof Blob;
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers: body === undefined ? {} : { 'Content-Type': file ? body.type : 'application/json' },
      body: body === undefined ? undefined : file ? body : JSON.stringify(body),
      credentials: 'same-origin',
      signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, code: (error as Error).name === 'TimeoutError' ? 'REQUEST_TIMEOUT' : 'NETWORK_ERROR' };
  }
  const payload: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, data: payload as T };
  const error = (payload as { error?: { code?: unknown; fields?: Record<string, ErrorCode> } } | null)?.error;
  if (isErrorCode(error?.code)) {
    const retryAfter = retryAfterSeconds(response.headers.get('Retry-After'));
    return {
      ok: false,
      code: error.code,
      fields: error.fields,
      ...(retryAfter === undefined ? {} : { retryAfter }),
    };
  }
  if (response.status === 408 || response.status === 504) return { ok: false, code: 'REQUEST_TIMEOUT' };
  if (response.status === 413 && options.tooLarge) return { ok: false, code: options.tooLarge };
  return { ok: false, code: response.status >= 500 ? 'SERVER_ERROR' : 'UNKNOWN_ERROR' };
}
