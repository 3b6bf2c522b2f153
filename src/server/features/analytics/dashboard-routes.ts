import { type AnalyticsAnswer, CONSOLE_API } from '#common/console-api.ts';
import { AnalyticsQuerySchema } from '#common/console-schemas.ts';
import type { Deps } from '#server/deps.ts';
import { requireStaff } from '#server/features/accounts/index.ts';
import { newRoutes } from '#server/http/context.ts';
import { queryParams } from '#server/http/json-body.ts';
import { dashboard } from './dashboard.ts';

/** The console's analytics page, for operators and admins, from the embedded store. */
export function dashboardRoutes(deps: Deps) {
  const routes = newRoutes();
  routes.get(CONSOLE_API.analytics, requireStaff(deps), queryParams(AnalyticsQuerySchema), async (c) => {
    const { from, to } = c.req.valid('query');
    return c.json({
      ...(await dashboard(deps.db, from, to)),
      posthogHost: deps.settings.posthog?.host ?? null,
    } satisfies AnalyticsAnswer);
  });
  return routes;
}
