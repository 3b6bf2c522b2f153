import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { FingerprintRecordSchema } from '../../common/fingerprint.ts';
import { apiError } from '../app.ts';
import { refuseOverLimit } from '../client-rate-limit.ts';
import type { Database } from '../db/database.ts';
import { issueFpid } from '../visitor/fpid.ts';

export interface FingerprintOptions {
  db: Database;
  secret: Buffer;
  trustedProxies: number;
  /** Records per client address and minute. */
  rateLimit?: number;
}

/** A real record is about 3 KB (hashed components); anything much larger is not one. */
const MAX_BODY_BYTES = 16 * 1024;
/**
 * A browser sends its record once, then keeps the cookie. The default leaves room for an office or
 * a school behind one address while stopping anyone who mints identifiers in bulk.
 */
const DEFAULT_RATE_LIMIT = 60;
const RATE_WINDOW_SECONDS = 60;

const isJson = (type: string | undefined) => /^application\/json\s*(;|$)/i.test(type ?? '');

/**
 * Exchanges a fingerprint record for the visitor identifier (fpid): a keyed hash of the
 * visitorId, the same on every instance that shares the secret, and checkable by any of them.
 */
export function fingerprintRoutes(app: Hono, options: FingerprintOptions) {
  app.post(
    '/api/fingerprint',
    bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json(apiError('INVALID_FINGERPRINT'), 413) }),
    async (c) => {
      const hits = options.rateLimit ?? DEFAULT_RATE_LIMIT;
      const refused = await refuseOverLimit(c, options, 'fingerprint', { hits, windowSeconds: RATE_WINDOW_SECONDS });
      if (refused) return refused;
      if (!isJson(c.req.header('Content-Type'))) return c.json(apiError('FINGERPRINT_REQUIRED'), 415);

      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        return c.json(apiError('FINGERPRINT_REQUIRED'), 400);
      }
      if (typeof body !== 'object' || body === null || !('visitorId' in body)) {
        return c.json(apiError('FINGERPRINT_REQUIRED'), 400);
      }
      const record = FingerprintRecordSchema.safeParse(body);
      if (!record.success) return c.json(apiError('INVALID_FINGERPRINT'), 400);
      return c.json({ fpid: issueFpid(options.secret, record.data.visitorId) }, 200, { 'Cache-Control': 'no-store' });
    },
  );
  app.all('/api/fingerprint', (c) => c.json(apiError('INVALID_REQUEST'), 405, { Allow: 'POST' }));
}
