import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { ApiError, ErrorCode } from '../common/error-codes.ts';
import type { Database } from './db/database.ts';
import { securityHeadersMiddleware } from './security-headers.ts';

export interface AppOptions {
  db: Database;
  /** Signs visitor identifiers (see secrets.ts). */
  secret: Buffer;
  /** See TRUST_PROXY in env.ts. */
  trustedProxies: number;
  /** The headers every answer carries (see security-headers.ts). */
  security: Record<string, string>;
}

/** Largest request body an API endpoint reads; each endpoint may set a smaller one. */
const MAX_API_BODY_BYTES = 64 * 1024;

export const apiError = (code: ErrorCode): ApiError => ({ error: { code } });

/**
 * The API, in web-standard handlers. The built site is served before a request gets here (see
 * site-handler.ts); what reaches this app and is not an API call is a method the site refuses.
 */
export function createApp({ security }: AppOptions): Hono {
  const app = new Hono();
  app.use(securityHeadersMiddleware(security));
  app.use(
    '/api/*',
    bodyLimit({ maxSize: MAX_API_BODY_BYTES, onError: (c) => c.json(apiError('INVALID_REQUEST'), 413) }),
  );

  app.get('/api/health', (c) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' }));
  app.all('/api/*', (c) => c.json(apiError('INVALID_REQUEST'), 404));
  app.all('*', (c) => c.text('Method not allowed', 405, { Allow: 'GET, HEAD' }));

  app.onError((error, c) => {
    // Malformed JSON, a wrong content type and the like: the client's mistake, said as such.
    if (error instanceof HTTPException && error.status < 500) return c.json(apiError('INVALID_REQUEST'), error.status);
    console.error(error);
    return c.json(apiError('SERVER_ERROR'), 500);
  });
  return app;
}
