import type { Hono } from 'hono';
import { pageViewReport } from '../analytics/events-store.ts';
import { isReportToken } from '../analytics/report.ts';
import { apiError } from '../app.ts';
import type { Database } from '../db/database.ts';

const MAX_DAYS = 3660;

/** The embedded analytics report, for `npm run analytics` while the server holds the database. */
export function analyticsReportRoutes(app: Hono, options: { db: Database; secret: Buffer }) {
  app.get('/api/analytics/report', async (c) => {
    if (!isReportToken(options.secret, c.req.header('Authorization'))) return c.json(apiError('UNAUTHORIZED'), 401);
    const days = Number(c.req.query('days') ?? 30);
    if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS) return c.json(apiError('INVALID_REQUEST'), 400);
    return c.json(await pageViewReport(options.db, days), 200, { 'Cache-Control': 'no-store' });
  });
  app.all('/api/analytics/report', (c) => c.json(apiError('INVALID_REQUEST'), 405, { Allow: 'GET' }));
}
