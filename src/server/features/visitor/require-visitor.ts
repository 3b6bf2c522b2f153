import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { storageEntry } from '#common/storage.ts';
import { ApiError } from '#server/http/api-error.ts';
import { verifyFpid } from './fpid.ts';

/** Written by the browser from what the fingerprint endpoint answers (see the visitor flow). */
const FPID_COOKIE = storageEntry('visitorId').name;

/**
 * Account calls come only from a browser that has a visitor identifier this server issued: none
 * gives FINGERPRINT_REQUIRED, one it cannot verify INVALID_FINGERPRINT.
 */
export function requireVisitor(secret: Buffer) {
  return createMiddleware(async (c, next) => {
    const fpid = getCookie(c, FPID_COOKIE);
    if (!fpid) throw new ApiError(400, 'FINGERPRINT_REQUIRED');
    if (!verifyFpid(secret, fpid)) throw new ApiError(403, 'INVALID_FINGERPRINT');
    await next();
  });
}
