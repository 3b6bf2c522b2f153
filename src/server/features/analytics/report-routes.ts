import type { Deps } from '#server/deps.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { pageViewReport } from './events-store.ts';
import { isReportToken, MAX_REPORT_DAYS } from './report.ts';

/** The embedded analytics report, for `npm run analytics` while the server holds the database. */
export function reportRoutes(deps: Deps) {
  const routes = newRoutes();
  routes.get('/api/analytics/report', async (c) => {
    if (!isReportToken(deps.secret, c.req.header('Authorization'))) throw new ApiError(401, 'UNAUTHORIZED');
    const days = Number(c.req.query('days') ?? 30);
    if (!Number.isInteger(days) || days < 1 || days > MAX_REPORT_DAYS) throw new ApiError(400, 'INVALID_REQUEST');
    return c.json(await pageViewReport(deps.db, days));
  });
  routes.all('/api/analytics/report', () => {
    throw new ApiError(405, 'INVALID_REQUEST', { headers: { Allow: 'GET' } });
  });
  return routes;
}
