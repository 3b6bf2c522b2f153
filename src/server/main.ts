import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { pruneEvents } from './analytics/events-store.ts';
import { createApp } from './app.ts';
import { openDatabase } from './db/database.ts';
import { readEnv } from './env.ts';
import { createListener } from './listener.ts';
import { outboxMailer, smtpMailer } from './mail/mailer.ts';
import { startMaintenance } from './maintenance.ts';
import { loadServerSecret } from './secrets.ts';
import { type InlineHashes, securityHeaders } from './security-headers.ts';
import { readSiteConfig, readTexts } from './site-files.ts';
import { loadStaticFiles } from './static-files.ts';
import { createServerTracing } from './tracing.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

async function main() {
  const env = readEnv();
  await mkdir(env.DATA_DIR, { recursive: true });
  const files = await loadStaticFiles(path.join(env.SITE_DIR, 'client'));
  const inline = JSON.parse(await readFile(path.join(env.SITE_DIR, 'inline-hashes.json'), 'utf8')) as InlineHashes;
  const security = securityHeaders(inline);
  const db = await openDatabase({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
  const secret = await loadServerSecret(env.DATA_DIR, env.SERVER_SECRET);
  const tracing = createServerTracing(env.OTEL_EXPORTER_OTLP_ENDPOINT, env.UPSTREAM_TIMEOUT_MS);
  const posthog = env.POSTHOG_HOST && env.POSTHOG_KEY ? { host: env.POSTHOG_HOST, key: env.POSTHOG_KEY } : undefined;
  // The brand and the texts the site was built with, for mail in the visitor's language.
  const site = await readSiteConfig();
  const texts = await readTexts();
  const mailer = env.SMTP_URL
    ? smtpMailer(env.SMTP_URL, env.MAIL_FROM ?? `${site.brand.siteName} <no-reply@${site.brand.domain}>`)
    : outboxMailer(db);
  const app = createApp({
    db,
    secret,
    trustedProxies: env.TRUST_PROXY,
    security,
    upstreams: { posthog, collector: env.OTEL_EXPORTER_OTLP_ENDPOINT, timeoutMs: env.UPSTREAM_TIMEOUT_MS },
    tracing,
    fingerprintRateLimit: env.FINGERPRINT_RATE_LIMIT,
    site,
    texts,
    mailer,
    sessionIdleSeconds: env.SESSION_IDLE_SECONDS,
  });
  // Embedded analytics keep events for a fixed time (see the privacy policy): pruned at start and daily.
  const prune = () =>
    pruneEvents(db).catch((error: Error) => console.error('Pruning analytics failed:', error.message));
  void prune();
  setInterval(prune, DAY_MS).unref();
  const stopMaintenance = startMaintenance(db);

  const server = createServer(createListener(app, files, security));
  server.listen(env.PORT, env.HOST, () => {
    const store = env.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${env.DATA_DIR}`;
    const analytics = posthog ? `PostHog at ${posthog.host}` : 'embedded (npm run analytics)';
    const mail = env.SMTP_URL ? 'SMTP' : 'the mail_outbox table and this log';
    console.log(`Serving on http://localhost:${env.PORT} (data: ${store}; analytics: ${analytics}; mail: ${mail})`);
  });
  const stop = () => {
    stopMaintenance();
    server.close(() => Promise.allSettled([tracing?.shutdown(), db.close()]).finally(() => process.exit(0)));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
