import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { TRACES_PATH } from '../../common/analytics.ts';
import { apiError } from '../app.ts';
import { refuseOverLimit } from '../client-rate-limit.ts';
import type { Database } from '../db/database.ts';
import { callUpstream, upstreamFailure } from '../upstream.ts';

export interface TracesOptions {
  db: Database;
  trustedProxies: number;
  /** OTEL_EXPORTER_OTLP_ENDPOINT; without it spans are accepted and dropped. */
  collector?: string;
  timeoutMs: number;
}

/** The browser exports at most 64 spans at a time, well under this. */
const MAX_BODY_BYTES = 512 * 1024;
/** A page exports every few seconds; room for many visitors behind one address. */
const RATE_LIMIT = { hits: 600, windowSeconds: 60 };

const isJson = (type: string | undefined) => /^application\/json\s*(;|$)/i.test(type ?? '');

/** The browser's OTLP/HTTP (JSON) export, sent on to the collector from the site's own origin. */
export function tracesRoutes(app: Hono, options: TracesOptions) {
  app.post(
    TRACES_PATH,
    bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json(apiError('INVALID_REQUEST'), 413) }),
    async (c) => {
      const refused = await refuseOverLimit(c, options, 'traces', RATE_LIMIT);
      if (refused) return refused;
      if (!isJson(c.req.header('Content-Type'))) return c.json(apiError('INVALID_REQUEST'), 415);
      const text = await c.req.text();
      let payload: unknown;
      try {
        payload = JSON.parse(text);
      } catch {
        return c.json(apiError('INVALID_REQUEST'), 400);
      }
      const spans = (payload as { resourceSpans?: unknown } | null)?.resourceSpans;
      if (!Array.isArray(spans)) return c.json(apiError('INVALID_REQUEST'), 400);
      if (!options.collector) return c.json({});

      const result = await callUpstream(
        new URL(`${options.collector.replace(/\/+$/, '')}/v1/traces`),
        { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text },
        { timeoutMs: options.timeoutMs, maxBytes: 64 * 1024 },
      );
      if (!result.ok) return upstreamFailure(c, result.reason);
      return result.status < 300 ? c.json({}) : c.json(apiError('NETWORK_ERROR'), 502);
    },
  );
  app.all(TRACES_PATH, (c) => c.json(apiError('INVALID_REQUEST'), 405, { Allow: 'POST' }));
}
