import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { routePath } from 'hono/route';
import { HEALTH_PATHS } from '#server/health-routes.ts';
import { log, type RequestFields, withRequestFields } from '#server/platform/log.ts';
import { METRICS_PATH, type Metrics } from '#server/platform/metrics.ts';
import type { AppEnv } from './context.ts';

/** An id a trusted proxy may pass on (nginx's `$request_id` is 32 hex digits); anything else is replaced. */
const FORWARDED_ID = /^[\w.-]{8,64}$/;
/** W3C trace context: version, trace id, parent span id, flags; an all-zero trace id is invalid. */
const TRACEPARENT = /^[\da-f]{2}-(?!0{32})([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;

/** Checks a scraper or a load balancer repeats every few seconds: logged only at `trace`. */
const ROUTINE = new Set<string>([METRICS_PATH, ...Object.values(HEALTH_PATHS)]);

/**
 * The first layer of every request the API app answers: gives it an id (the trusted proxy's, or a
 * new one), sent back as X-Request-Id and carried by every log line written while it runs with its
 * trace id; then counts it in the metrics by route pattern and status, and logs it at `debug`.
 */
export const requestContext = (metrics: Metrics, trustedProxies: number) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    const forwarded = trustedProxies > 0 ? c.req.header('X-Request-Id') : undefined;
    const traceId = TRACEPARENT.exec(c.req.header('traceparent') ?? '')?.[1];
    const fields: RequestFields = {
      reqId: forwarded && FORWARDED_ID.test(forwarded) ? forwarded : randomUUID(),
      ...(traceId ? { traceId } : {}),
    };
    await withRequestFields(fields, async () => {
      await next();
      c.res.headers.set('X-Request-Id', fields.reqId);
      const route = routePath(c);
      const seconds = (performance.now() - started) / 1000;
      metrics.recordRequest(c.req.method, route, c.res.status, seconds);
      const answered = { method: c.req.method, route, status: c.res.status, ms: Math.round(seconds * 10_000) / 10 };
      if (ROUTINE.has(route)) log.trace(answered, 'Request answered');
      else log.debug(answered, 'Request answered');
    });
  });
