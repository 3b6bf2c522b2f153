import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { createApp, JOBS } from './app.ts';
import { type InlineHashes, securityHeaders } from './http/security-headers.ts';
import { openDatabase } from './platform/db/database.ts';
import { readEnv, settingsFrom } from './platform/env.ts';
import { scheduleRecurring, startJobRunner } from './platform/jobs/jobs.ts';
import { outboxMailer, smtpMailer } from './platform/mail/mailer.ts';
import { loadServerSecret } from './platform/secrets.ts';
import { readSiteConfig, readTexts } from './platform/site-config.ts';
import { createServerTracing } from './platform/tracing.ts';
import { loadStaticFiles } from './site/build-files.ts';
import { createListener } from './site/listener.ts';

/** Reads the environment and the build, opens the database, and serves; stops cleanly on a signal. */
async function main() {
  const env = readEnv();
  await mkdir(env.DATA_DIR, { recursive: true });
  const files = await loadStaticFiles(path.join(env.SITE_DIR, 'client'));
  const inline = JSON.parse(await readFile(path.join(env.SITE_DIR, 'inline-hashes.json'), 'utf8')) as InlineHashes;
  const security = securityHeaders(inline);
  const db = await openDatabase({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
  const secret = await loadServerSecret(env.DATA_DIR, env.SERVER_SECRET);
  const tracing = createServerTracing(env.OTEL_EXPORTER_OTLP_ENDPOINT, env.UPSTREAM_TIMEOUT_MS);
  const settings = settingsFrom(env);
  // The brand and the texts the site was built with, for mail in the visitor's language.
  const site = await readSiteConfig();
  const texts = await readTexts();
  const mailer = env.SMTP_URL
    ? smtpMailer(env.SMTP_URL, env.MAIL_FROM ?? `${site.brand.siteName} <no-reply@${site.brand.domain}>`)
    : outboxMailer(db);
  const app = createApp({ db, secret, trustedProxies: env.TRUST_PROXY, security, tracing, site, texts, settings });
  await scheduleRecurring(db, JOBS);
  const jobs = startJobRunner({ db, mailer }, JOBS);

  const server = createServer(createListener(app, files, security));
  server.listen(env.PORT, env.HOST, () => {
    const store = env.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${env.DATA_DIR}`;
    const analytics = settings.posthog ? `PostHog at ${settings.posthog.host}` : 'embedded (npm run analytics)';
    const mail = env.SMTP_URL ? 'SMTP' : 'the mail_outbox table and this log';
    console.log(`Serving on http://localhost:${env.PORT} (data: ${store}; analytics: ${analytics}; mail: ${mail})`);
  });
  const stop = () => {
    server.close(() =>
      Promise.allSettled([jobs.stop(), tracing?.shutdown()])
        .then(() => db.close())
        .finally(() => process.exit(0)),
    );
    // Event streams never end by themselves: requests under way get a moment, then what is left is
    // cut, and browsers reconnect (to another instance) from the last event they saw.
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2_000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
