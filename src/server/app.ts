import { Hono } from 'hono';
import type { Texts } from '#common/languages.ts';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '#common/site-config.ts';
import type { Deps } from './deps.ts';
import { accountJobs, accountsFeature } from './features/accounts/index.ts';
import { analyticsFeature, analyticsJobs } from './features/analytics/index.ts';
import { backupFeature } from './features/backup/index.ts';
import { chatFeature, chatJobs } from './features/chat/index.ts';
import { contactFeature, contactJobs } from './features/contact/index.ts';
import { searchFeature } from './features/search/index.ts';
import { SiteBrand, siteBrandFeature } from './features/site-brand/index.ts';
import { sitePicturesFeature } from './features/site-pictures/index.ts';
import { SiteTexts, siteTextsFeature } from './features/site-texts/index.ts';
import { staffFeature, staffJobs } from './features/staff/index.ts';
import { tracingFeature } from './features/tracing/index.ts';
import { visitorFeature } from './features/visitor/index.ts';
import { healthRoutes } from './health-routes.ts';
import { ApiError, handleError } from './http/api-error.ts';
import { withClientAddress } from './http/client-address.ts';
import type { AppEnv } from './http/context.ts';
import type { Feature } from './http/feature.ts';
import { requestGuards } from './http/guards.ts';
import { createRateLimiter } from './http/rate-limit.ts';
import { rateLimitJobs } from './http/rate-limit-counter.ts';
import { requestContext } from './http/request-context.ts';
import { securityHeadersMiddleware } from './http/security-headers.ts';
import { metricsRoutes } from './metrics-routes.ts';
import type { Database } from './platform/db/database.ts';
import { DEFAULT_SETTINGS, type Settings } from './platform/env.ts';
import type { JobDefinitions, JobRunner } from './platform/jobs/jobs.ts';
import { mailJobs } from './platform/mail/mail-queue.ts';
import { Metrics } from './platform/metrics.ts';
import type { ServerTracing } from './platform/tracing.ts';
import type { PageHtml } from './site/build-files.ts';

/** The API app, as main.ts serves it and tests call it. */
export type ApiApp = Hono<AppEnv>;

export interface AppOptions {
  db: Database;
  /** Signs visitor identifiers and keys the hashes the database keeps (see platform/secrets.ts). */
  secret: Buffer;
  /** See TRUST_PROXY in platform/env.ts. */
  trustedProxies: number;
  /** The headers every answer carries (see http/security-headers.ts). */
  security: Record<string, string>;
  /** The server's own spans; none without a collector. */
  tracing?: ServerTracing | null;
  /** Brand and public address; the placeholders by default. */
  site?: SiteConfig;
  /** The translation files, for mail in the visitor's language. */
  texts?: Texts;
  settings?: Partial<Settings>;
  /** This process's job runner, which readiness asks about (see health-routes.ts). */
  jobs?: Pick<JobRunner, 'alive'>;
  /**
   * The instance's metrics, when the caller made them: it then passes a database it timed with
   * `metrics.timed` (start.ts does, so the job runner's statements count too). Without, the app
   * makes its own and times its database itself.
   */
  metrics?: Metrics;
  /** Whether the process is stopping: readiness then answers 503 (see health-routes.ts). */
  draining?: () => boolean;
  /** The built pages, for the account forms posted without JavaScript (see Deps). */
  pages?: PageHtml;
  /** The published texts; without it, the app reads them from the database on its own, rendering nothing. */
  siteTexts?: SiteTexts;
  /** The brand set in the console, whose `site` is the one given; without it, the app keeps one of its own. */
  siteBrand?: SiteBrand;
}

/**
 * Every feature, in the order its routes are mounted, with the jobs it runs: a new feature is
 * added here, once, and its routes and jobs both follow.
 */
const FEATURES: { create: (deps: Deps) => Feature; jobs?: JobDefinitions }[] = [
  { create: visitorFeature },
  { create: analyticsFeature, jobs: analyticsJobs },
  { create: tracingFeature },
  { create: accountsFeature, jobs: accountJobs },
  { create: contactFeature, jobs: contactJobs },
  { create: staffFeature, jobs: staffJobs },
  { create: chatFeature, jobs: chatJobs },
  { create: backupFeature },
  { create: searchFeature },
  { create: siteTextsFeature },
  { create: siteBrandFeature },
  { create: sitePicturesFeature },
];

/** Every job the server runs, by kind: mail delivery, the rate limits' clean-up and each feature's. */
export const JOBS: JobDefinitions = Object.assign(
  { ...mailJobs, ...rateLimitJobs },
  ...FEATURES.map((feature) => feature.jobs ?? {}),
);

/** Largest request body an API endpoint reads, unless its feature says otherwise; a route may set a smaller one. */
const MAX_API_BODY_BYTES = 64 * 1024;

/**
 * The API: the request layer, then each feature mounted with its routes. The built site is served
 * before a request gets here (see site/listener.ts); what reaches this app and is not an API call
 * is a method the site refuses.
 */
export function createApp(options: AppOptions): ApiApp {
  const { secret } = options;
  const metrics = options.metrics ?? new Metrics();
  const db = options.metrics ? options.db : metrics.timed(options.db);
  metrics.watchDatabase(db, JOBS);
  const siteTexts = options.siteTexts ?? new SiteTexts({ db, shipped: options.texts ?? {} });
  // A copy: the brand settings change the configuration in force in place.
  const siteBrand =
    options.siteBrand ??
    new SiteBrand({ db, site: structuredClone(options.site ?? DEFAULT_SITE_CONFIG), texts: siteTexts.catalog });
  const site = siteBrand.site;
  const deps: Deps = {
    db,
    secret,
    site,
    texts: siteTexts.texts,
    siteTexts,
    siteBrand,
    limiter: createRateLimiter(db, secret),
    settings: { ...DEFAULT_SETTINGS, ...options.settings },
    metrics,
    pages: options.pages,
  };
  const features = FEATURES.map((feature) => feature.create(deps));

  const app = new Hono<AppEnv>();
  app.use(requestContext(metrics, options.trustedProxies));
  app.use(securityHeadersMiddleware(options.security));
  if (options.tracing) app.use('/api/*', options.tracing.middleware);
  app.use('/api/*', withClientAddress(options.trustedProxies));
  const exemptions = features.flatMap((feature) => feature.guardExemptions ?? []);
  app.use('/api/*', requestGuards(site.siteUrl, exemptions, MAX_API_BODY_BYTES));

  app.route(
    '/',
    healthRoutes({ db, timeoutMs: deps.settings.healthTimeoutMs, jobs: options.jobs, draining: options.draining }),
  );
  app.route('/', metricsRoutes({ metrics, token: deps.settings.metricsToken }));
  for (const feature of features) app.route('/', feature.routes);

  app.all('/api/*', () => {
    throw new ApiError(404, 'NOT_FOUND');
  });
  app.all('*', (c) => c.text('Method not allowed', 405, { Allow: 'GET, HEAD' }));
  app.onError(handleError);
  return app;
}
