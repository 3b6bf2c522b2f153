import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiErrorBody, ErrorCode } from '#common/error-codes.ts';

export type FieldErrors = Record<string, ErrorCode>;

/**
 * The one way an API call fails: throw it from a handler or a middleware, and the app's error
 * handler answers `{ "error": { "code", "fields"? } }` with its status and headers.
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  readonly headers?: Record<string, string>;

  constructor(
    status: ContentfulStatusCode,
    code: ErrorCode,
    options: { fields?: FieldErrors; headers?: Record<string, string> } = {},
  ) {
    super(code);
    this.status = status;
    this.code = code;
    this.fields = options.fields;
    this.headers = options.headers;
  }
}

export const errorBody = (code: ErrorCode, fields?: FieldErrors): ApiErrorBody => ({
  error: fields ? { code, fields } : { code },
});

/**
 * The app's error handler: an ApiError says what to answer; Hono's own 4xx (malformed JSON, a body
 * over the limit) is the client's mistake, said as INVALID_REQUEST; anything else is logged and
 * answered SERVER_ERROR, never with a stack trace.
 */
export function handleError(error: Error, c: Context): Response {
  // An error belongs to one request: no browser or proxy may keep it.
  c.header('Cache-Control', 'no-store');
  if (error instanceof ApiError) return c.json(errorBody(error.code, error.fields), error.status, error.headers);
  if (error instanceof HTTPException && error.status < 500) {
    return c.json(errorBody('INVALID_REQUEST'), error.status as ContentfulStatusCode);
  }
  console.error(error);
  return c.json(errorBody('SERVER_ERROR'), 500);
}
