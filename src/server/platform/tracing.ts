import type { TextMapGetter } from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';
import { currentRequestFields } from './log.ts';

export interface ServerTracing {
  /** One server span per API request, a child of the browser's span when it sent `traceparent`. */
  middleware: MiddlewareHandler;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

const headerGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/** `/api/posthog/e/` → `/api/posthog`: span names stay few, whatever paths clients send. */
const routeOf = (pathname: string) => pathname.split('/').slice(0, 3).join('/');

/**
 * The server's own tracing, exported to the collector named by OTEL_EXPORTER_OTLP_ENDPOINT; null
 * without one. The provider is not registered globally, so two apps in one process (tests) keep
 * their spans apart.
 */
export function createServerTracing(endpoint: string | undefined, timeoutMs: number): ServerTracing | null {
  if (!endpoint) return null;
  // OpenTelemetry, its API and core included (several megabytes resident, decision 256), loads only
  // where tracing is configured, in the background from start; the first request waits for it if
  // it comes sooner.
  const started = Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
  ]).then(
    ([
      api,
      { W3CTraceContextPropagator },
      { OTLPTraceExporter },
      { resourceFromAttributes },
      { BasicTracerProvider, BatchSpanProcessor },
    ]) => {
      const exporter = new OTLPTraceExporter({
        url: `${endpoint.replace(/\/+$/, '')}/v1/traces`,
        timeoutMillis: timeoutMs,
      });
      const provider = new BasicTracerProvider({
        resource: resourceFromAttributes({ 'service.name': 'polyglot-site-server', 'service.version': '1.0.0' }),
        spanProcessors: [new BatchSpanProcessor(exporter)],
      });
      const tracer = provider.getTracer('polyglot-site-server', '1.0.0');
      return { api, provider, tracer, propagator: new W3CTraceContextPropagator() };
    },
  );

  return {
    middleware: async (c, next) => {
      const { api, tracer, propagator } = await started;
      const parent = propagator.extract(api.ROOT_CONTEXT, c.req.raw.headers, headerGetter);
      const url = new URL(c.req.url);
      const span = tracer.startSpan(
        `${c.req.method} ${routeOf(url.pathname)}`,
        { kind: api.SpanKind.SERVER, attributes: { 'http.request.method': c.req.method, 'url.path': url.pathname } },
        parent,
      );
      // The request's log lines name the trace the span belongs to (a new one when the browser sent none).
      const fields = currentRequestFields();
      if (fields) fields.traceId = span.spanContext().traceId;
      try {
        await next();
      } finally {
        span.setAttribute('http.response.status_code', c.res.status);
        if (c.res.status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
        span.end();
      }
    },
    flush: async () => (await started).provider.forceFlush(),
    shutdown: async () => (await started).provider.shutdown(),
  };
}
