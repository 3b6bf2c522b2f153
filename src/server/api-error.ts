import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiError, ErrorCode } from '../common/error-codes.ts';

export const apiError = (code: ErrorCode, fields?: Record<string, ErrorCode>): ApiError => ({
  error: fields ? { code, fields } : { code },
});

/** Answers with an error code, the one shape every API error has. */
export const fail = (
  c: Context,
  status: ContentfulStatusCode,
  code: ErrorCode,
  fields?: Record<string, ErrorCode>,
  headers?: Record<string, string>,
) => c.json(apiError(code, fields), status, headers);
