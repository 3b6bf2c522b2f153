import { zValidator } from '@hono/zod-validator';
import type { $ZodType } from 'zod/v4/core';
import { type ErrorCode, isErrorCode } from '../common/error-codes.ts';

/**
 * Validates a JSON body with a shared schema (zod or zod/mini). Schemas name an error code as each
 * rule's message (`z.email({ error: 'INVALID_EMAIL' })`), so a failure answers 400 with
 * `{ error: { code: 'VALIDATION_ERROR', fields: { email: 'INVALID_EMAIL' } } }`.
 */
export function jsonBody<T extends $ZodType>(schema: T) {
  return zValidator('json', schema, (result, c) => {
    if (result.success) return;
    const fields: Record<string, ErrorCode> = {};
    for (const issue of result.error.issues) {
      const field = issue.path.join('.') || '_';
      fields[field] ??= isErrorCode(issue.message) ? issue.message : 'INVALID_REQUEST';
    }
    return c.json({ error: { code: 'VALIDATION_ERROR' as ErrorCode, fields } }, 400);
  });
}
