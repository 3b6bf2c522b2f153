import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { ApiError } from './http/api-error.ts';
import { newRoutes } from './http/context.ts';
import { fromThisMachine } from './http/from-this-machine.ts';
import { METRICS_PATH, type Metrics } from './platform/metrics.ts';

export interface MetricsOptions {
  metrics: Metrics;
  /** METRICS_TOKEN: a scraper elsewhere sends it as `Authorization: Bearer …`. */
  token?: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics` in Prometheus's text format, for this machine without a token (a scraper beside
 * the instance, never through a proxy: behind nginx every request comes from loopback, and nginx
 * adds X-Forwarded-For) or for whoever sends METRICS_TOKEN. Everyone else gets 401.
 */
export function metricsRoutes({ metrics, token }: MetricsOptions) {
  const routes = newRoutes();
  // Compared as digests of equal length, in constant time.
  const expected = token ? digest(`Bearer ${token}`) : null;
  const bearerMatches = (c: Context) => {
    const sent = c.req.header('Authorization');
    return expected !== null && sent !== undefined && timingSafeEqual(digest(sent), expected);
  };

  routes.get(METRICS_PATH, async (c) => {
    if (!bearerMatches(c) && !fromThisMachine(c)) {
      throw new ApiError(401, 'UNAUTHORIZED', { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } });
    }
    const { contentType, body } = await metrics.exposition();
    return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  });
  return routes;
}
