import { TRACES_PATH } from '#common/analytics.ts';
import type { Deps } from '#server/deps.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { isJson } from '#server/http/json-body.ts';
import { callUpstream, upstreamError } from '#server/http/upstream.ts';

/** The browser exports at most 64 spans at a time, well under this. */
export const TRACES_MAX_BODY_BYTES = 512 * 1024;
/** A page exports every few seconds; room for many visitors behind one address. */
const RATE_LIMIT = { hits: 600, windowSeconds: 60 };

/** The browser's OTLP/HTTP (JSON) export, sent on to the collector from the site's own origin. */
export function tracesRoutes(deps: Deps) {
  const routes = newRoutes();
  const { collector, upstreamTimeoutMs } = deps.settings;
  routes.post(TRACES_PATH, deps.limiter.perClient('traces', RATE_LIMIT), async (c) => {
    if (!isJson(c.req.header('Content-Type'))) throw new ApiError(415, 'INVALID_REQUEST');
    const text = await c.req.text();
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      throw new ApiError(400, 'INVALID_REQUEST');
    }
    const spans = (payload as { resourceSpans?: unknown } | null)?.resourceSpans;
    if (!Array.isArray(spans)) throw new ApiError(400, 'INVALID_REQUEST');
    if (!collector) return c.json({});

    const result = await callUpstream(
      new URL(`${collector.replace(/\/+$/, '')}/v1/traces`),
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text },
      { timeoutMs: upstreamTimeoutMs, maxBytes: 64 * 1024 },
    );
    if (!result.ok) throw upstreamError(result.reason);
    if (result.status >= 300) throw new ApiError(502, 'NETWORK_ERROR');
    return c.json({});
  });
  routes.all(TRACES_PATH, () => {
    throw new ApiError(405, 'INVALID_REQUEST', { headers: { Allow: 'POST' } });
  });
  return routes;
}
