import path from 'node:path';
import { type ApiApp, createApp, JOBS } from './app.ts';
import { SiteBrand } from './features/site-brand/index.ts';
import { SiteTexts } from './features/site-texts/index.ts';
import type { InlineHashes } from './http/security-headers.ts';
import { configurationContradictions } from './platform/contradictions.ts';
import { ownerOnlyDir } from './platform/db/data-dir.ts';
import { openDatabase } from './platform/db/database.ts';
import { type Env, settingsFrom } from './platform/env.ts';
import { scheduleRecurring, startJobRunner } from './platform/jobs/jobs.ts';
import { log, setLogLevel } from './platform/log.ts';
import { outboxMailer, smtpMailer } from './platform/mail/mailer.ts';
import { Metrics } from './platform/metrics.ts';
import { loadServerSecret } from './platform/secrets.ts';
import { loadSiteConfig, ownAddress, readTexts } from './platform/site-config.ts';
import { createServerTracing } from './platform/tracing.ts';
import { pageHtmlFrom, type StaticFile } from './site/build-files.ts';
import { livePages } from './site/live-pages.ts';

/** The API with what it runs on, started; `stop` ends the jobs and the tracing, then closes the database. */
export interface RunningApi {
  app: ApiApp;
  /** Its metrics, which the HTTP listener adds the pages it serves to. */
  metrics: Metrics;
  /** Where data, analytics and mail go, for the start-up line. */
  summary: string;
  /** Draws a share image a page rendered by this server names, on its first request (PagePublisher). */
  drawShareImage?: (urlPath: string) => Promise<void> | undefined;
  stop: () => Promise<void>;
}

/**
 * Opens the database, makes the API app and starts the job runner, from a read environment. The
 * production server (main.ts) and the development server (scripts/build/dev.ts) both start the API so.
 */
export async function startApi(
  env: Env,
  security: Record<string, string>,
  draining?: () => boolean,
  /**
   * The build the listener serves from: pages whose texts or brand are published are rendered into
   * `files`; `inline` is the inline code the build made.
   */
  build?: { siteDir: string; files: Map<string, StaticFile>; inline: InlineHashes },
): Promise<RunningApi> {
  setLogLevel(env.LOG_LEVEL);
  await ownerOnlyDir(env.DATA_DIR);
  const metrics = new Metrics({ process: true });
  const opened = await openDatabase({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
  const db = metrics.timed(opened);
  const secret = await loadServerSecret(env.DATA_DIR, env.SERVER_SECRET);
  const tracing = createServerTracing(env.OTEL_EXPORTER_OTLP_ENDPOINT, env.UPSTREAM_TIMEOUT_MS);
  const settings = settingsFrom(env);
  // The brand and the texts the site was built with, for mail in the visitor's language; without
  // a configured public address, links point at this server.
  const site = await loadSiteConfig({ defaultSiteUrl: ownAddress(env.HOST, env.PORT) });
  const contradictions = configurationContradictions(site, env);
  if (contradictions.length > 0) log.warn(`Configuration contradicts itself: ${contradictions.join('; ')}`);
  const texts = await readTexts();
  const publisher = build && livePages({ ...build, site, cacheDir: path.join(env.DATA_DIR, 'share-images') });
  const siteTexts = new SiteTexts({ db, shipped: texts, publisher });
  const siteBrand = new SiteBrand({ db, site, texts: siteTexts.catalog, publisher });
  // Before the first request: the pages served are the published ones from the start.
  const unlisten = [await siteTexts.start(), await siteBrand.start()];
  const mailer = env.SMTP_URL
    ? smtpMailer(env.SMTP_URL, env.MAIL_FROM ?? (() => `${site.brand.siteName} <no-reply@${site.brand.domain}>`), () =>
        siteBrand.mailLogo(),
      )
    : outboxMailer(db);
  await scheduleRecurring(db, JOBS);
  const jobs = startJobRunner({ db, mailer, site: siteBrand.site, texts: siteTexts.texts }, JOBS, {
    onFinish: (kind, outcome) => metrics.recordJob(kind, outcome),
  });
  const app = createApp({
    db,
    secret,
    trustedProxies: env.TRUST_PROXY,
    security,
    tracing,
    site,
    texts,
    settings,
    jobs,
    metrics,
    draining,
    pages: build && pageHtmlFrom(build.files),
    siteTexts,
    siteBrand,
  });

  const store = env.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${env.DATA_DIR}`;
  const analytics = settings.posthog ? `PostHog at ${settings.posthog.host}` : 'embedded (npm run analytics)';
  const mail = env.SMTP_URL ? 'SMTP' : 'not sent, kept in the mail_outbox table and this log (no SMTP_URL)';
  return {
    app,
    metrics,
    drawShareImage: publisher?.drawShareImage,
    summary: `data: ${store}; analytics: ${analytics}; mail: ${mail}`,
    stop: async () => {
      await Promise.allSettled([jobs.stop(), tracing?.shutdown(), ...unlisten.map((stop) => stop())]);
      await opened.close();
    },
  };
}
