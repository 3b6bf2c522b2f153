import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { ApiError, ErrorCode } from '../common/error-codes.ts';
import type { Database } from './db/database.ts';
import { analyticsReportRoutes } from './routes/analytics-report.ts';
import { fingerprintRoutes } from './routes/fingerprint.ts';
import { posthogRoutes } from './routes/posthog.ts';
import { tracesRoutes } from './routes/traces.ts';
import { securityHeadersMiddleware } from './security-headers.ts';
import type { ServerTracing } from './tracing.ts';

export interface AppOptions {
  db: Database;
  /** Signs visitor identifiers (see secrets.ts). */
  secret: Buffer;
  /** See TRUST_PROXY in env.ts. */
  trustedProxies: number;
  /** The headers every answer carries (see security-headers.ts). */
  security: Record<string, string>;
  /** Optional upstreams (see env.ts); each missing one has an embedded default. */
  upstreams?: { posthog?: { host: string; key: string }; collector?: string; timeoutMs?: number };
  /** The server's own spans; none without a collector. */
  tracing?: ServerTracing | null;
  /** See FINGERPRINT_RATE_LIMIT in env.ts. */
  fingerprintRateLimit?: number;
}

const DEFAULT_UPSTREAM_TIMEOUT_MS = 5_000;

/** Largest request body an API endpoint reads; each endpoint may set a smaller one. */
const MAX_API_BODY_BYTES = 64 * 1024;

export const apiError = (code: ErrorCode): ApiError => ({ error: { code } });

/**
 * The API, in web-standard handlers. The built site is served before a request gets here (see
 * site-handler.ts); what reaches this app and is not an API call is a method the site refuses.
 */
export function createApp(options: AppOptions): Hono {
  const { db, secret, trustedProxies, security, upstreams = {}, tracing } = options;
  const app = new Hono();
  app.use(securityHeadersMiddleware(security));
  if (tracing) app.use('/api/*', tracing.middleware);

  // Endpoints with a body limit of their own come before the general one, which would answer first.
  const timeoutMs = upstreams.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  fingerprintRoutes(app, { db, secret, trustedProxies, rateLimit: options.fingerprintRateLimit });
  posthogRoutes(app, { db, trustedProxies, upstream: upstreams.posthog, timeoutMs });
  tracesRoutes(app, { db, trustedProxies, collector: upstreams.collector, timeoutMs });

  app.use(
    '/api/*',
    bodyLimit({ maxSize: MAX_API_BODY_BYTES, onError: (c) => c.json(apiError('INVALID_REQUEST'), 413) }),
  );

  app.get('/api/health', (c) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' }));
  analyticsReportRoutes(app, { db, secret });
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
