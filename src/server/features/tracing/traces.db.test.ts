import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createServerTracing } from '#server/platform/tracing.ts';
import { describeApi, freshAddress } from '#tests/support/api.ts';
import { type StandIn, startStandIn } from '#tests/support/stand-in.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const spans = JSON.stringify({
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.version', value: { stringValue: '1.0.0' } }] },
      scopeSpans: [{ spans: [{ traceId: TRACE_ID, spanId: PARENT_ID, name: 'application-session' }] }],
    },
  ],
});
const send = (body: string, type = 'application/json', headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'Content-Type': type, 'X-Forwarded-For': freshAddress(), ...headers },
  body,
});

describeApi('/api/traces without a collector', ({ app }) => {
  it('accepts spans and drops them', async () => {
    const response = await app().request('/api/traces', send(spans));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
  });

  it.each([
    ['non-JSON', 'spans!', 'application/json', 400],
    ['JSON without resourceSpans', '{"spans":[]}', 'application/json', 400],
    ['JSON null', 'null', 'application/json', 400],
    ['nested to death', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'application/json', 400],
    ['protobuf', 'binary', 'application/x-protobuf', 415],
    ['no content type', spans, '', 415],
  ])('answers %s with a 4xx and an error code', async (_, body, type, status) => {
    const response = await app().request('/api/traces', send(body, type));
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error: { code: 'INVALID_REQUEST' } });
  });

  it('refuses a body over its cap and other methods', async () => {
    const huge = await app().request('/api/traces', send(' '.repeat(600 * 1024)));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ error: { code: 'INVALID_REQUEST' } });
    const get = await app().request('/api/traces');
    expect(get.status).toBe(405);
    expect(await get.json()).toEqual({ error: { code: 'INVALID_REQUEST' } });
  });
});

describeApi('tracing with a collector', ({ app }) => {
  let collector: StandIn;
  beforeAll(async () => {
    collector = await startStandIn();
  });
  afterAll(() => collector.close());
  beforeEach(() => {
    collector.received.length = 0;
    collector.answer((_, response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
  });
  const withCollector = (timeoutMs = 2_000, url?: string) =>
    app({ settings: { collector: url ?? collector.url, upstreamTimeoutMs: timeoutMs } });

  it('forwards the browser’s spans to the collector as they came', async () => {
    const response = await withCollector().request('/api/traces', send(spans));
    expect(response.status).toBe(200);
    expect(collector.received).toHaveLength(1);
    expect(collector.received[0]).toMatchObject({ method: 'POST', url: '/v1/traces' });
    expect(collector.received[0]?.headers['content-type']).toBe('application/json');
    expect(collector.received[0]?.body.toString()).toBe(spans);
  });

  it('answers REQUEST_TIMEOUT for a slow collector and NETWORK_ERROR for one that is down or failing', async () => {
    collector.answer(() => {
      // Never answers.
    });
    const slow = await withCollector(300).request('/api/traces', send(spans));
    expect(slow.status).toBe(504);
    expect(await slow.json()).toEqual({ error: { code: 'REQUEST_TIMEOUT' } });

    collector.answer((_, response) => response.writeHead(500).end('<html>oops'));
    const failing = await withCollector().request('/api/traces', send(spans));
    expect(failing.status).toBe(502);
    expect(await failing.json()).toEqual({ error: { code: 'NETWORK_ERROR' } });

    const down = await startStandIn();
    await down.close();
    const gone = await withCollector(2_000, down.url).request('/api/traces', send(spans));
    expect(gone.status).toBe(502);
  });

  it('continues the browser’s trace in the server’s own spans', async () => {
    const tracing = createServerTracing(collector.url, 2_000);
    const traced = app({ tracing });
    const traceparent = `00-${TRACE_ID}-${PARENT_ID}-01`;
    const response = await traced.request('/api/fingerprint', send('{}', 'application/json', { traceparent }));
    expect(response.status).toBe(400);
    await tracing?.flush();

    const exported = collector.received.find((request) => request.url === '/v1/traces');
    const body = JSON.parse(exported?.body.toString() ?? '{}');
    const span = body.resourceSpans[0].scopeSpans[0].spans[0];
    expect(span).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT_ID, name: 'POST /api/fingerprint' });
    const attributes = Object.fromEntries(
      span.attributes.map((a: { key: string; value: Record<string, unknown> }) => [a.key, Object.values(a.value)[0]]),
    );
    expect(attributes).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 400 });
    const resource = Object.fromEntries(
      body.resourceSpans[0].resource.attributes.map((a: { key: string; value: { stringValue: string } }) => [
        a.key,
        a.value.stringValue,
      ]),
    );
    expect(resource['service.version']).toBe('1.0.0');
    await tracing?.shutdown();
  });
});
