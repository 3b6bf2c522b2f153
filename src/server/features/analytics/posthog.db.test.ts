import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { RETENTION } from '#common/retention.ts';
import { limitKey } from '#server/http/rate-limit.ts';
import { describeApi, freshAddress, TEST_SECRET } from '#tests/support/api.ts';
import { captureLog } from '#tests/support/log.ts';
import { type StandIn, startStandIn } from '#tests/support/stand-in.ts';
import { pageViewReport, pruneEvents } from './events-store.ts';
import { reportToken } from './report.ts';

const now = new Date().toISOString();
const pageview = (distinctId: string, url: string, uuid?: string) => ({
  event: '$pageview',
  uuid,
  timestamp: now,
  properties: { distinct_id: distinctId, $current_url: url, token: 'first-party' },
});

/** Calls `request` and gives its answer with the lines it wrote to the log meanwhile, as written. */
async function logged(request: () => Response | Promise<Response>) {
  const log = captureLog();
  try {
    const response = await request();
    return { response, lines: log.lines.map((line) => JSON.stringify(line)) };
  } finally {
    log.restore();
  }
}

/** What a refused body may leave in the log: at most one short line (an error's fields, cut short). */
const expectShortLog = (lines: string[]) => {
  expect(lines.length).toBeLessThanOrEqual(1);
  for (const line of lines) {
    expect(line).not.toContain('\n');
    expect(line.length).toBeLessThan(800);
  }
};

const send = (body: string | Uint8Array, address = freshAddress(), type = 'application/json') =>
  ({
    method: 'POST',
    headers: { 'Content-Type': type, 'X-Forwarded-For': address, 'User-Agent': 'TestBrowser/1.0' },
    body,
  }) as RequestInit;

describeApi('/api/posthog without an upstream', ({ app, db }) => {
  beforeEach(async () => {
    await db().query('DELETE FROM analytics_events');
  });

  it('keeps page views sent as JSON, gzip or base64, and reports them per day, language and page', async () => {
    const plain = JSON.stringify([
      pageview('v1.a', 'http://localhost/it/about?ref=x', '00000000-0000-4000-8000-000000000001'),
      pageview('v1.b', 'http://localhost/it/about', '00000000-0000-4000-8000-000000000002'),
    ]);
    const gzip = gzipSync(
      JSON.stringify([pageview('v1.a', 'http://localhost/th', '00000000-0000-4000-8000-000000000003')]),
    );
    const base64 = `data=${encodeURIComponent(
      Buffer.from(JSON.stringify({ batch: [pageview('v1.a', 'http://localhost/it/about')] })).toString('base64'),
    )}`;
    for (const [path, body, type] of [
      ['/api/posthog/e/', plain, 'application/json'],
      ['/api/posthog/e/?compression=gzip-js', gzip, 'text/plain'],
      ['/api/posthog/batch/?compression=base64', base64, 'application/x-www-form-urlencoded'],
    ] as const) {
      const response = await app().request(path, send(body, undefined, type));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 1 });
    }
    const today = now.slice(0, 10);
    expect(await pageViewReport(db(), 30)).toEqual([
      { day: today, language: 'it', path: '/it/about', views: 3, visitors: 2 },
      { day: today, language: 'th', path: '/th', views: 1, visitors: 1 },
    ]);
  });

  it('stores a batch sent twice once', async () => {
    const body = JSON.stringify([pageview('v1.a', 'http://localhost/en', '00000000-0000-4000-8000-0000000000aa')]);
    await app().request('/api/posthog/e/', send(body));
    await app().request('/api/posthog/e/', send(body));
    expect(await db().query('SELECT count(*)::integer AS n FROM analytics_events')).toEqual([{ n: 1 }]);
  });

  it('answers flags and remote configuration with everything off', async () => {
    const flags = await app().request('/api/posthog/flags/?v=2', send('{"token":"first-party"}'));
    expect(flags.status).toBe(200);
    expect(await flags.json()).toMatchObject({ featureFlags: {}, sessionRecording: false });
    const config = await app().request('/api/posthog/array/first-party/config');
    expect(await config.json()).toMatchObject({ surveys: false });
  });

  it.each([
    ['non-JSON', 'hello'],
    ['JSON without events', '{"a":1}'],
    ['events without a distinct id', JSON.stringify([{ event: '$pageview', properties: {} }])],
    ['a list of junk', JSON.stringify([1, 'two', null, [3]])],
    ['nested to death', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['a gzip bomb', gzipSync(Buffer.alloc(20 * 1024 * 1024))],
    ['broken gzip', Buffer.from([0x1f, 0x8b, 1, 2, 3])],
  ])('answers %s with 400 and an error code', async (_, body) => {
    const response = await app().request('/api/posthog/e/', send(body));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'INVALID_REQUEST' } });
  });

  it.each([
    ['an event name', { event: 'page\u0000view' }],
    ['a distinct id', { properties: { distinct_id: 'v1.\u0000', $current_url: 'http://localhost/en' } }],
  ])('answers a NUL byte in %s with 400 and a short log line, and keeps the other events', async (_, change) => {
    const bad = { ...pageview('v1.a', 'http://localhost/en'), ...change };
    const alone = await logged(() => app().request('/api/posthog/e/', send(JSON.stringify([bad]))));
    expect(alone.response.status).toBe(400);
    expect(await alone.response.json()).toEqual({ error: { code: 'INVALID_REQUEST' } });
    expectShortLog(alone.lines);

    const good = pageview('v1.good', 'http://localhost/de/about', '00000000-0000-4000-8000-0000000000bb');
    const mixed = await logged(() => app().request('/api/posthog/e/', send(JSON.stringify([bad, good]))));
    expect(mixed.response.status).toBe(200);
    expect(await db().query('SELECT distinct_id, path FROM analytics_events')).toEqual([
      { distinct_id: 'v1.good', path: '/de/about' },
    ]);
  });

  it('keeps an event whose path or uuid holds a NUL byte, without them', async () => {
    const events = [
      {
        ...pageview('v1.path', 'http://localhost/en'),
        properties: { distinct_id: 'v1.path', $pathname: '/en/\u0000' },
      },
      pageview('v1.uuid', 'http://localhost/en', '0000\u0000'),
    ];
    const { response, lines } = await logged(() => app().request('/api/posthog/e/', send(JSON.stringify(events))));
    expect(response.status).toBe(200);
    expect(lines).toEqual([]);
    expect(await db().query('SELECT distinct_id, path, uuid FROM analytics_events ORDER BY distinct_id')).toEqual([
      { distinct_id: 'v1.path', path: null, uuid: null },
      { distinct_id: 'v1.uuid', path: '/en', uuid: null },
    ]);
  });

  it('refuses a body over its cap', async () => {
    const response = await app().request('/api/posthog/e/', send('x'.repeat(1024 * 1024 + 1)));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: { code: 'INVALID_REQUEST' } });
  });

  it('has no scripts to give and refuses other methods', async () => {
    const script = await app().request('/api/posthog/static/recorder.js');
    expect(script.status).toBe(404);
    expect(await script.json()).toEqual({ error: { code: 'NOT_FOUND' } });
    const put = await app().request('/api/posthog/e/', { method: 'PUT', body: '[]' });
    expect(put.status).toBe(405);
    expect(await put.json()).toEqual({ error: { code: 'INVALID_REQUEST' } });
  });

  it('limits each client on each instance, in memory: no statement counts a batch', async () => {
    const address = freshAddress();
    const instance = app({});
    for (let i = 0; i < 600; i++) {
      const answer = await instance.request('/api/posthog/e/', send('[]', address));
      if (answer.status !== 200) expect.fail(`batch ${i + 1} answered ${answer.status}`);
    }
    const refused = await instance.request('/api/posthog/e/', send('[]', address));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: { code: 'TOO_MANY_REQUESTS' } });
    const counted = 'SELECT count(*)::integer AS n FROM rate_limits WHERE key = $1';
    expect(await db().query(counted, [limitKey(TEST_SECRET, 'posthog', address)])).toEqual([{ n: 0 }]);
    // Someone else is still served, and another instance counts the same client afresh.
    expect((await instance.request('/api/posthog/e/', send('[]', freshAddress()))).status).toBe(200);
    expect((await app({}).request('/api/posthog/e/', send('[]', address))).status).toBe(200);
  });
});

describeApi('/api/posthog with an upstream', ({ app }) => {
  let posthog: StandIn;
  const KEY = 'phc_company_key';
  const withUpstream = (timeoutMs = 2_000, host?: string) =>
    app({ settings: { posthog: { host: host ?? posthog.url, key: KEY }, upstreamTimeoutMs: timeoutMs } });

  beforeAll(async () => {
    posthog = await startStandIn();
  });
  afterAll(() => posthog.close());
  beforeEach(() => {
    posthog.received.length = 0;
    posthog.answer((_, response) =>
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":1}'),
    );
  });

  it('forwards events with the company’s key and the client address, and relays the answer', async () => {
    const address = freshAddress();
    const body = gzipSync(JSON.stringify([pageview('v1.visitor', 'http://localhost/fr/contact')]));
    const response = await withUpstream().request('/api/posthog/e/?compression=gzip-js&ver=1.0', send(body, address));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 1 });

    const [forwarded] = posthog.received;
    expect(forwarded?.method).toBe('POST');
    expect(forwarded?.url).toBe('/e/?ver=1.0');
    expect(forwarded?.headers['x-forwarded-for']).toBe(address);
    expect(forwarded?.headers['user-agent']).toBe('TestBrowser/1.0');
    expect(forwarded?.headers['content-type']).toBe('application/json');
    const events = JSON.parse(forwarded?.body.toString() ?? '[]');
    expect(events[0].properties).toMatchObject({ distinct_id: 'v1.visitor', token: KEY });
  });

  it('forwards flags, remote configuration and the scripts posthog-js loads', async () => {
    posthog.answer((request, response) => {
      const script = request.url.startsWith('/static/');
      response
        .writeHead(200, { 'Content-Type': script ? 'text/javascript' : 'application/json' })
        .end(script ? '/* recorder */' : '{"featureFlags":{}}');
    });
    const flags = await withUpstream().request('/api/posthog/flags/?v=2', send('{"token":"first-party"}'));
    expect(await flags.json()).toEqual({ featureFlags: {} });
    expect(JSON.parse(posthog.received[0]?.body.toString() ?? '{}')).toEqual({ token: KEY });

    posthog.answer((_, response) =>
      response
        .writeHead(200, { 'Content-Type': 'text/javascript' })
        .end(`window._POSTHOG_REMOTE_CONFIG["${KEY}"]={config:{}}`),
    );
    const config = await withUpstream().request('/api/posthog/array/first-party/config.js');
    expect(config.status).toBe(200);
    expect(posthog.received[1]?.url).toBe(`/array/${KEY}/config.js`);
    expect(await config.text()).toBe('window._POSTHOG_REMOTE_CONFIG["first-party"]={config:{}}');
    posthog.answer((request, response) =>
      response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(`/* ${request.url} */`),
    );

    const script = await withUpstream().request('/api/posthog/static/recorder.js?v=1');
    expect(script.headers.get('content-type')).toBe('text/javascript');
    expect(await script.text()).toBe('/* /static/recorder.js?v=1 */');
    expect(posthog.received[2]).toMatchObject({ method: 'GET', url: '/static/recorder.js?v=1' });
  });

  it.each([
    ['a list', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['an object', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
    ['an event', `[{"event":"$pageview","properties":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}]`],
  ])('answers %s nested 10,000 levels deep with 400 and a short log line, forwarding nothing', async (_, body) => {
    const { response, lines } = await logged(() => withUpstream().request('/api/posthog/e/', send(body)));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'INVALID_REQUEST' } });
    expectShortLog(lines);
    expect(posthog.received).toHaveLength(0);
  });

  it('does not forward a body it cannot read', async () => {
    const response = await withUpstream().request('/api/posthog/e/', send('garbage'));
    expect(response.status).toBe(400);
    expect(posthog.received).toHaveLength(0);
  });

  it('answers REQUEST_TIMEOUT when PostHog is slow, within the timeout', async () => {
    posthog.answer(() => {
      // Never answers.
    });
    const started = Date.now();
    const response = await withUpstream(300).request('/api/posthog/e/', send('[]'));
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({ error: { code: 'REQUEST_TIMEOUT' } });
    // Far below the test's own timeout, where a request without one would end; far above the
    // 300 ms asked, which a loaded machine may stretch.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('answers NETWORK_ERROR when PostHog is down', async () => {
    const down = await startStandIn();
    await down.close();
    const response = await withUpstream(2_000, down.url).request('/api/posthog/e/', send('[]'));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: { code: 'NETWORK_ERROR' } });
  });

  it('relays garbage as it came, and drops an answer too large to hold', async () => {
    posthog.answer((_, response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end('{{{not json'));
    const garbage = await withUpstream().request('/api/posthog/flags/', send('{}'));
    expect(garbage.status).toBe(200);
    expect(await garbage.text()).toBe('{{{not json');

    posthog.answer((_, response) => response.writeHead(200).end(Buffer.alloc(5 * 1024 * 1024)));
    const huge = await withUpstream().request('/api/posthog/static/huge.js');
    expect(huge.status).toBe(502);
  });
});

describeApi('/api/analytics/report', ({ app, db }) => {
  it('gives the report to the holder of the token derived from the server secret only', async () => {
    await db().query('DELETE FROM analytics_events');
    await app().request('/api/posthog/e/', send(JSON.stringify([pageview('v1.a', 'http://localhost/nl/contact')])));
    const token = reportToken(TEST_SECRET);
    const report = await app().request('/api/analytics/report?days=7', {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(report.status).toBe(200);
    expect(await report.json()).toEqual([
      { day: now.slice(0, 10), language: 'nl', path: '/nl/contact', views: 1, visitors: 1 },
    ]);
    for (const header of [undefined, 'Bearer nope', `Bearer ${reportToken(Buffer.alloc(32, 1))}`]) {
      const refused = await app().request('/api/analytics/report', {
        headers: header ? { Authorization: header } : {},
      });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ error: { code: 'UNAUTHORIZED' } });
    }
    const bad = await app().request('/api/analytics/report?days=-1', { headers: { Authorization: `Bearer ${token}` } });
    expect(bad.status).toBe(400);
  });
});

describeApi('the embedded store', ({ db }) => {
  it('deletes events past the retention period only', async () => {
    await db().query('DELETE FROM analytics_events');
    await db().query(
      `INSERT INTO analytics_events (uuid, event, distinct_id, occurred_at) VALUES
       ('old', '$pageview', 'v1.a', now() - interval '400 days'),
       ('recent', '$pageview', 'v1.a', now() - interval '390 days')`,
    );
    expect(await pruneEvents(db(), RETENTION.analyticsDays)).toBe(1);
    expect(await db().query('SELECT uuid FROM analytics_events')).toEqual([{ uuid: 'recent' }]);
  });
});
