import { type Span, trace } from '@opentelemetry/api';
import { POSTHOG_PATH, TRACES_PATH } from '#common/analytics.ts';
import { SessionContextManager } from './session-context.ts';

export const APP_VERSION = '1.0.0';
export const SESSION_SPAN = 'application-session';

let started: Promise<void> | null = null;

async function start() {
  const [
    { WebTracerProvider, BatchSpanProcessor },
    { FetchInstrumentation },
    { registerInstrumentations },
    otlp,
    resources,
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-web'),
    import('@opentelemetry/instrumentation-fetch'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  // The visit ends when the page goes away. Listening before the span processor does means the
  // session span has ended when the processor sends what is left, with keepalive, on the same event.
  let session: Span | undefined;
  window.addEventListener('pagehide', () => session?.end());

  const exporter = new otlp.OTLPTraceExporter({ url: TRACES_PATH });
  const provider = new WebTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': 'polyglot-site-web', 'service.version': APP_VERSION }),
    spanProcessors: [new BatchSpanProcessor(exporter, { maxExportBatchSize: 64, scheduledDelayMillis: 5_000 })],
  });
  const contextManager = new SessionContextManager();
  provider.register({ contextManager });

  session = provider.getTracer('polyglot-site-web', APP_VERSION).startSpan(SESSION_SPAN, {
    attributes: { 'url.path': window.location.pathname },
  });
  contextManager.setBase(trace.setSpan(contextManager.active(), session));

  // Same-origin requests carry `traceparent` (no cross-origin URL is listed for it). The export
  // itself and analytics batches are left out: tracing them would trace the tracing.
  registerInstrumentations({
    instrumentations: [
      new FetchInstrumentation({
        propagateTraceHeaderCorsUrls: [],
        ignoreUrls: [new RegExp(`${TRACES_PATH}$`), new RegExp(POSTHOG_PATH)],
      }),
    ],
  });
}

/** Starts browser tracing once per page; a failure (the code could not be fetched) means no tracing. */
export function startTracing(): Promise<void> {
  started ??= start().catch(() => {});
  return started;
}
