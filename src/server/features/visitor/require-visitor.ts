import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { storageEntry } from '#common/storage.ts';
import { ApiError } from '#server/http/api-error.ts';
import { verifyFpid } from './fpid.ts';

/** Written by the browser from what the fingerprint endpoint answers (see the visitor flow). */
const FPID_COOKIE = storageEntry('visitorId').name;

/**
 * The visitor check of the account calls: an identifier the browser sends must be one this server
 * issued (INVALID_FINGERPRINT otherwise, and the browser gets a new one). A browser without one (a
 * visitor who declined analytics under the privacy option, or blocks cookies) goes on: the call's
 * own limits per client address and per account protect it, as they protect a call with an
 * identifier, which any script can get for one request (docs/decisions/051).
 */
export function requireVisitor(secret: Buffer) {
  return createMiddleware(async (c, next) => {
    const fpid = getCookie(c, FPID_COOKIE);
    if (fpid !== undefined && !verifyFpid(secret, fpid)) throw new ApiError(403, 'INVALID_FINGERPRINT');
    await next();
  });
}
