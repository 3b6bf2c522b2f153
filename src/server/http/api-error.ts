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

/** Longest message a log line repeats: a driver's error can carry a whole statement and its data. */
const MAX_LOGGED_MESSAGE = 200;

/**
 * An unexpected error as one short log line: its kind, its message cut short and the place it was
 * thrown. A stack trace or an error's own fields (a database error holds the statement's
 * parameters) could run to many kilobytes per request, and a client could make that happen at will.
 */
export function logLine(error: unknown, where: string): string {
  const fault = error instanceof Error ? error : new Error(String(error));
  const code = (fault as { code?: unknown }).code;
  const message = fault.message.replace(/\s+/g, ' ').slice(0, MAX_LOGGED_MESSAGE);
  const place = fault.stack
    ?.split('\n')
    .find((line) => /^\s+at /.test(line))
    ?.trim()
    .slice(0, MAX_LOGGED_MESSAGE);
  return `${where}: ${fault.name}${typeof code === 'string' ? ` ${code}` : ''}: ${message}${place ? ` (${place})` : ''}`;
}

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
  console.error(logLine(error, `${c.req.method} ${c.req.path.slice(0, MAX_LOGGED_MESSAGE)}`));
  return c.json(errorBody('SERVER_ERROR'), 500);
}
