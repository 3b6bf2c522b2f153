import { FINGERPRINT_PATH, type FingerprintAnswer } from '#common/fingerprint.ts';
import type { Deps } from '#server/deps.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { isJson, readJson } from '#server/http/json-body.ts';
import { FingerprintRecordSchema } from './fingerprint-schema.ts';
import { issueFpid } from './fpid.ts';

/** A real record is about 3 KB (hashed components); anything much larger is not one. */
export const FINGERPRINT_MAX_BODY_BYTES = 16 * 1024;
const RATE_WINDOW_SECONDS = 60;

/**
 * Exchanges a fingerprint record for the visitor identifier (fpid): a keyed hash of the
 * visitorId, the same on every instance that shares the secret, and checkable by any of them.
 * Nothing is stored, so each instance limits its clients by itself (docs/decisions/173).
 */
export function fingerprintRoutes(deps: Deps) {
  const routes = newRoutes();
  const limit = () => ({ hits: deps.settings.fingerprintRateLimit, windowSeconds: RATE_WINDOW_SECONDS });
  routes.post(FINGERPRINT_PATH, deps.limiter.perClientHere('fingerprint', limit), async (c) => {
    if (!isJson(c.req.header('Content-Type'))) throw new ApiError(415, 'FINGERPRINT_REQUIRED');
    const body = await readJson(c, 'FINGERPRINT_REQUIRED');
    if (typeof body !== 'object' || body === null || !('visitorId' in body)) {
      throw new ApiError(400, 'FINGERPRINT_REQUIRED');
    }
    const record = FingerprintRecordSchema.safeParse(body);
    if (!record.success) throw new ApiError(400, 'INVALID_FINGERPRINT');
    return c.json({ fpid: issueFpid(deps.secret, record.data.visitorId) } satisfies FingerprintAnswer);
  });
  routes.all(FINGERPRINT_PATH, () => {
    throw new ApiError(405, 'INVALID_REQUEST', { headers: { Allow: 'POST' } });
  });
  return routes;
}
