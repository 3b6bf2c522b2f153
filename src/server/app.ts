import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '../common/site-config.ts';
import { apiError } from './api-error.ts';
import { createPasswords, DEFAULT_HASHING, type HashingParams } from './auth/passwords.ts';
import type { AccountServices } from './auth/services.ts';
import { DEFAULT_SESSION_IDLE_SECONDS } from './auth/session-cookie.ts';
import type { Database } from './db/database.ts';
import type { Texts } from './mail/code-mail.ts';
import { type Mailer, outboxMailer } from './mail/mailer.ts';
import { noStore, sameOriginJson } from './request-guards.ts';
import { accountRoutes } from './routes/account.ts';
import { analyticsReportRoutes } from './routes/analytics-report.ts';
import { fingerprintRoutes } from './routes/fingerprint.ts';
import { passwordResetRoutes } from './routes/password-reset.ts';
import { posthogRoutes } from './routes/posthog.ts';
import { registrationRoutes } from './routes/registration.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { tracesRoutes } from './routes/traces.ts';
import { securityHeadersMiddleware } from './security-headers.ts';
import type { ServerTracing } from './tracing.ts';

export { apiError } from './api-error.ts';

export interface AppOptions {
  db: Database;
  /** Signs visitor identifiers and keys the hashes of codes (see secrets.ts). */
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
  /** Brand and public address, for mail; the placeholders by default. */
  site?: SiteConfig;
  /** The translation files, for mail in the visitor's language. */
  texts?: Texts;
  /** Where mail goes: the outbox table by default (see SMTP_URL in env.ts). */
  mailer?: Mailer;
  /** Only tests pass weaker parameters than the default, to run fast. */
  passwordHashing?: HashingParams;
  /** See SESSION_IDLE_SECONDS in env.ts. */
  sessionIdleSeconds?: number;
}

const DEFAULT_UPSTREAM_TIMEOUT_MS = 5_000;

/** Largest request body an API endpoint reads; each endpoint may set a smaller one. */
const MAX_API_BODY_BYTES = 64 * 1024;

/**
 * The API, in web-standard handlers. The built site is served before a request gets here (see
 * site-handler.ts); what reaches this app and is not an API call is a method the site refuses.
 */
export function createApp(options: AppOptions): Hono {
  const { db, secret, trustedProxies, security, upstreams = {}, tracing } = options;
  const services: AccountServices = {
    db,
    secret,
    trustedProxies,
    passwords: createPasswords(options.passwordHashing ?? DEFAULT_HASHING),
    mailer: options.mailer ?? outboxMailer(db),
    site: options.site ?? DEFAULT_SITE_CONFIG,
    texts: options.texts ?? {},
    sessionIdleSeconds: options.sessionIdleSeconds ?? DEFAULT_SESSION_IDLE_SECONDS,
  };
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

  for (const path of ['/api/auth/*', '/api/account/*']) app.use(path, noStore, sameOriginJson(services.site.siteUrl));
  app.use('/api/session', noStore);
  registrationRoutes(app, services);
  sessionRoutes(app, services);
  passwordResetRoutes(app, services);
  accountRoutes(app, services);

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
