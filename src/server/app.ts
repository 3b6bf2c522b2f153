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
import { passwordResetRoutes } from './routes/password-reset.ts';
import { registrationRoutes } from './routes/registration.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { siteRoutes } from './routes/site.ts';
import { type InlineHashes, securityHeaders } from './security-headers.ts';
import type { StaticFile } from './static-files.ts';

export { apiError } from './api-error.ts';

export interface AppOptions {
  files: Map<string, StaticFile>;
  inline: InlineHashes;
  db: Database;
  /** Signs visitor identifiers and keys the hashes of codes (see secrets.ts). */
  secret: Buffer;
  /** See TRUST_PROXY in env.ts. */
  trustedProxies: number;
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

/** Largest request body an API endpoint reads; each endpoint may set a smaller one. */
const MAX_API_BODY_BYTES = 64 * 1024;

/** The whole server: security headers on everything, the API, then the site. */
export function createApp(options: AppOptions): Hono {
  const { files, inline, db } = options;
  const services: AccountServices = {
    db,
    secret: options.secret,
    trustedProxies: options.trustedProxies,
    passwords: createPasswords(options.passwordHashing ?? DEFAULT_HASHING),
    mailer: options.mailer ?? outboxMailer(db),
    site: options.site ?? DEFAULT_SITE_CONFIG,
    texts: options.texts ?? {},
    sessionIdleSeconds: options.sessionIdleSeconds ?? DEFAULT_SESSION_IDLE_SECONDS,
  };

  const app = new Hono();
  app.use(securityHeaders(inline));
  app.use(
    '/api/*',
    bodyLimit({ maxSize: MAX_API_BODY_BYTES, onError: (c) => c.json(apiError('INVALID_REQUEST'), 413) }),
  );

  app.get('/api/health', (c) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' }));

  for (const path of ['/api/auth/*', '/api/account/*']) app.use(path, noStore, sameOriginJson(services.site.siteUrl));
  app.use('/api/session', noStore);
  registrationRoutes(app, services);
  sessionRoutes(app, services);
  passwordResetRoutes(app, services);
  accountRoutes(app, services);

  app.all('/api/*', (c) => c.json(apiError('INVALID_REQUEST'), 404));

  siteRoutes(app, files);

  app.onError((error, c) => {
    // Malformed JSON, a wrong content type and the like: the client's mistake, said as such.
    if (error instanceof HTTPException && error.status < 500) return c.json(apiError('INVALID_REQUEST'), error.status);
    console.error(error);
    return c.json(apiError('SERVER_ERROR'), 500);
  });
  return app;
}
