import {
  ANALYTICS_API,
  ANALYTICS_DIMENSIONS,
  type AnalyticsAnswer,
  type AnalyticsDimension,
} from '#common/analytics-api.ts';
import { AnalyticsQuerySchema } from '#common/analytics-schemas.ts';
import type { Deps } from '#server/deps.ts';
import { requireStaff } from '#server/features/accounts/index.ts';
import { readChatSettings } from '#server/features/chat/index.ts';
import { newRoutes } from '#server/http/context.ts';
import { queryParams } from '#server/http/json-body.ts';
import { dashboard } from './dashboard.ts';
import { periodOf } from './periods.ts';
import { realtime } from './realtime.ts';

/**
 * The console's analytics page, for operators and admins, from the embedded store: a named period
 * or a range of days in the site's time zone (the one the chat's office hours are read in), and
 * who is on the site right now.
 */
export function dashboardRoutes(deps: Deps) {
  const routes = newRoutes();
  routes.get(ANALYTICS_API.dashboard, requireStaff(deps), queryParams(AnalyticsQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const { timeZone } = await readChatSettings(deps.db);
    const asked = query.period ? { period: query.period } : { from: query.from ?? '', to: query.to ?? '' };
    const filters: Partial<Record<AnalyticsDimension, string>> = {};
    for (const name of ANALYTICS_DIMENSIONS) {
      const value = query[name];
      if (value !== undefined) filters[name] = value;
    }
    return c.json({
      ...(await dashboard(deps.db, periodOf(asked, timeZone, new Date()), timeZone, filters)),
      posthogHost: deps.settings.posthog?.host ?? null,
    } satisfies AnalyticsAnswer);
  });
  routes.get(ANALYTICS_API.realtime, requireStaff(deps), async (c) => c.json(await realtime(deps.db)));
  return routes;
}
