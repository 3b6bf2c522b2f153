import { zValidator } from '@hono/zod-validator';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { $ZodType } from 'zod/v4/core';
import { type ErrorCode, isErrorCode } from '#common/error-codes.ts';
import { ApiError } from './api-error.ts';

/**
 * Validates a JSON body with a shared schema (zod/mini). Schemas name an error code as each
 * rule's message (`z.email({ error: 'INVALID_EMAIL' })`), so a failure answers 400 with
 * `{ error: { code: 'VALIDATION_ERROR', fields: { email: 'INVALID_EMAIL' } } }`.
 */
export function jsonBody<T extends $ZodType>(schema: T) {
  return zValidator('json', schema, (result) => {
    if (result.success) return;
    throw new ApiError(400, 'VALIDATION_ERROR', { fields: fieldErrors(result.error.issues) });
  });
}

/** Validates the query string with a shared schema, failing like jsonBody does. */
export function queryParams<T extends $ZodType>(schema: T) {
  return zValidator('query', schema, (result) => {
    if (result.success) return;
    throw new ApiError(400, 'VALIDATION_ERROR', { fields: fieldErrors(result.error.issues) });
  });
}

/** The first error code of each field; a rule without a code counts as INVALID_REQUEST. */
export function fieldErrors(issues: readonly { path: PropertyKey[]; message: string }[]): Record<string, ErrorCode> {
  const fields: Record<string, ErrorCode> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join('.') || '_';
    fields[field] ??= isErrorCode(issue.message) ? issue.message : 'INVALID_REQUEST';
  }
  return fields;
}

/**
 * Refuses a body over `maxSize` bytes with 413 and `code`, before anything reads it. A request
 * that declares its length is judged by the header (Node's parser never delivers more than it
 * declares), so the body stays unread and the route reads it straight from the socket: asking for
 * it here would build a web Request and stream around it, some tenth of a small request's
 * processor time. Bodies sent in chunks are counted as they are read; a GET or HEAD is not read.
 */
export function maxBody(maxSize: number, code: ErrorCode = 'INVALID_REQUEST'): MiddlewareHandler {
  const chunked = bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError(413, code);
    },
  });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('Content-Length');
    if (length === undefined || c.req.header('Transfer-Encoding') !== undefined) return chunked(c, next);
    if (Number(length) > maxSize) throw new ApiError(413, code);
    await next();
  };
}

/** Whether a Content-Type header names JSON. */
export const isJson = (type: string | undefined) => /^application\/json\s*(;|$)/i.test(type ?? '');

/** Parses a JSON body read by hand (without a schema); malformed JSON is a 400 with `code`. */
export async function readJson(c: Context, code: ErrorCode = 'INVALID_REQUEST'): Promise<unknown> {
  try {
    return JSON.parse(await c.req.text());
  } catch {
    throw new ApiError(400, code);
  }
}
