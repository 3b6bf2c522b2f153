import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { fail } from '../api-error.ts';
import { verifyFpid } from './fpid.ts';

/** Written by the browser from what POST /api/fingerprint answers (see the visitor flow). */
export const FPID_COOKIE = '_fpid';

/**
 * Auth calls come only from a browser that has a visitor identifier this server issued: none gives
 * FINGERPRINT_REQUIRED, one it cannot verify INVALID_FINGERPRINT.
 */
export function requireVisitor(secret: Buffer) {
  return createMiddleware(async (c, next) => {
    const fpid = getCookie(c, FPID_COOKIE);
    if (!fpid) return fail(c, 400, 'FINGERPRINT_REQUIRED');
    if (!verifyFpid(secret, fpid)) return fail(c, 403, 'INVALID_FINGERPRINT');
    return next();
  });
}
