import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { readSiteConfig, readTexts } from '../../scripts/site-files.ts';
import { createApp } from './app.ts';
import { openDatabase } from './db/database.ts';
import { readEnv } from './env.ts';
import { outboxMailer, smtpMailer } from './mail/mailer.ts';
import { startMaintenance } from './maintenance.ts';
import { loadServerSecret } from './secrets.ts';
import type { InlineHashes } from './security-headers.ts';
import { loadStaticFiles } from './static-files.ts';

async function main() {
  const env = readEnv();
  await mkdir(env.DATA_DIR, { recursive: true });
  const files = await loadStaticFiles(path.join(env.SITE_DIR, 'client'));
  const inline = JSON.parse(await readFile(path.join(env.SITE_DIR, 'inline-hashes.json'), 'utf8')) as InlineHashes;
  const db = await openDatabase({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
  const secret = await loadServerSecret(env.DATA_DIR, env.SERVER_SECRET);
  // The brand and the texts the site was built with, for mail in the visitor's language.
  const site = await readSiteConfig();
  const texts = await readTexts();
  const mailer = env.SMTP_URL
    ? smtpMailer(env.SMTP_URL, env.MAIL_FROM ?? `${site.brand.siteName} <no-reply@${site.brand.domain}>`)
    : outboxMailer(db);
  const app = createApp({
    files,
    inline,
    db,
    secret,
    trustedProxies: env.TRUST_PROXY,
    site,
    texts,
    mailer,
    sessionIdleSeconds: env.SESSION_IDLE_SECONDS,
  });
  const stopMaintenance = startMaintenance(db);

  const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
    const store = env.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${env.DATA_DIR}`;
    const mail = env.SMTP_URL ? 'SMTP' : 'the mail_outbox table and this log';
    console.log(`Serving on http://localhost:${info.port} (data: ${store}; mail: ${mail})`);
  });
  const stop = () => {
    stopMaintenance();
    server.close(() => db.close().finally(() => process.exit(0)));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
