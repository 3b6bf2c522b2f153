import { POSTHOG_PATH } from '#common/analytics.ts';
import { RETENTION } from '#common/retention.ts';
import type { Deps } from '#server/deps.ts';
import { readChatSettings } from '#server/features/chat/index.ts';
import { newRoutes } from '#server/http/context.ts';
import type { Feature } from '#server/http/feature.ts';
import type { JobDefinitions } from '#server/platform/jobs/jobs.ts';
import { dashboardRoutes } from './dashboard-routes.ts';
import { pruneRollups, rollUpDays } from './day-rollups.ts';
import { pruneEvents } from './events-store.ts';
import { POSTHOG_MAX_BODY_BYTES, posthogRoutes } from './posthog-routes.ts';
import { reportMailJobs } from './report-mail-jobs.ts';
import { reportMailSettingsRoutes } from './report-mail-settings.ts';
import { reportRoutes } from './report-routes.ts';
import { pruneUnconsentedViews, unconsentedViewRoutes } from './unconsented-views.ts';

/**
 * First-party analytics, and their page in the console. posthog-js sends its batches as beacons with its own content types and no
 * session, in larger bodies, so its path is taken out of the Origin and JSON checks; it has its own
 * rate limit.
 */
export function analyticsFeature(deps: Deps): Feature {
  return {
    routes: newRoutes()
      .route('/', posthogRoutes(deps))
      .route('/', reportRoutes(deps))
      .route('/', dashboardRoutes(deps))
      .route('/', unconsentedViewRoutes(deps))
      .route('/', reportMailSettingsRoutes(deps)),
    guardExemptions: [{ path: `${POSTHOG_PATH}/*`, origin: false, maxBodyBytes: POSTHOG_MAX_BODY_BYTES }],
  };
}

export const analyticsJobs: JobDefinitions = {
  ...reportMailJobs,
  'analytics.prune': {
    everySeconds: 24 * 60 * 60,
    run: async (_, { db }) => {
      await pruneEvents(db, RETENTION.analyticsDays);
      await pruneUnconsentedViews(db, RETENTION.analyticsDays);
      await pruneRollups(db, RETENTION.analyticsDays);
    },
  },
  /** The console reads ended days from their roll-ups (decision 253); a late batch rolls its day again. */
  'analytics.roll-up': {
    everySeconds: 60,
    run: async (_, { db }) => {
      await rollUpDays(db, (await readChatSettings(db)).timeZone, new Date());
    },
  },
};
export { dashboard } from './dashboard.ts';
export { rollUpDays } from './day-rollups.ts';
export type { ReportRow } from './events-store.ts';
export { pageViewReport } from './events-store.ts';
export { periodOf } from './periods.ts';
export { decodePosthogBody, eventsOf } from './posthog-payload.ts';
export { formatReport, MAX_REPORT_DAYS, reportToken } from './report.ts';
