import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { routePath } from 'hono/route';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiErrorBody, ErrorCode } from '#common/error-codes.ts';
import { DatabaseUnavailableError } from '#server/platform/db/database.ts';
import { errorFields, log } from '#server/platform/log.ts';

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

/** What a client is told to wait when the database did not answer: about as long as an outage's first retries. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Where a failed request was: its method and route pattern (never the path, which may carry anything). */
const whereFields = (c: Context) => ({ method: c.req.method, route: routePath(c) });

/**
 * The app's error handler: an ApiError says what to answer; Hono's own 4xx (malformed JSON, a body
 * over the limit) is the client's mistake, said as INVALID_REQUEST; anything else is logged and
 * answered SERVER_ERROR (503 with Retry-After when the database did not answer, 500 otherwise),
 * never with a stack trace.
 */
export function handleError(error: Error, c: Context): Response {
  // An error belongs to one request: no browser or proxy may keep it.
  c.header('Cache-Control', 'no-store');
  if (error instanceof ApiError) return c.json(errorBody(error.code, error.fields), error.status, error.headers);
  if (error instanceof HTTPException && error.status < 500) {
    return c.json(errorBody('INVALID_REQUEST'), error.status as ContentfulStatusCode);
  }
  if (error instanceof DatabaseUnavailableError) {
    // Passing: the client may try again shortly; one line, as an outage makes many of these.
    log.warn({ ...errorFields(error), ...whereFields(c) }, 'Database unavailable');
    return c.json(errorBody('SERVER_ERROR'), 503, { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
  }
  log.error({ ...errorFields(error), ...whereFields(c) }, 'Request failed');
  return c.json(errorBody('SERVER_ERROR'), 500);
}
