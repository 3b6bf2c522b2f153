import { afterAll, beforeAll, expect, it } from 'vitest';
import { withId } from '#common/api-paths.ts';
import { CHAT_API } from '#common/chat-api.ts';
import { INBOX_API } from '#common/inbox-api.ts';
import { securityHeaders } from '#server/http/security-headers.ts';
import { enqueue } from '#server/platform/jobs/jobs.ts';
import { METRICS_PATH, Metrics } from '#server/platform/metrics.ts';
import type { StaticFile } from '#server/site/build-files.ts';
import { describeApi } from '#tests/support/api.ts';
import { chatMessage, visitorStream } from '#tests/support/chat.ts';
import { startTestServer } from '#tests/support/test-server.ts';

const TOKEN = 'metrics-token-of-the-test-suite';
const security = securityHeaders();
const page: StaticFile = {
  type: 'text/html; charset=utf-8',
  etag: '"about"',
  cacheControl: 'no-cache',
  body: new TextEncoder().encode('<html>about</html>'),
};
const files = new Map([['/en/about/index.html', page]]);

/** The value of one sample of the text format, 0 when it is not there (a counter not yet moved). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '').split(',');
    if (wanted.every((pair) => have.includes(pair))) return Number(match[3]);
  }
  return 0;
}

describeApi('metrics', (api) => {
  let metrics: Metrics;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    metrics = new Metrics();
    const app = api.app({ metrics, db: metrics.timed(api.db()), settings: { metricsToken: TOKEN } });
    server = await startTestServer(app, files, security, { metrics });
  });
  afterAll(() => server?.close());

  const scrape = async (headers: Record<string, string> = {}) => {
    const response = await fetch(server.url + METRICS_PATH, { headers });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(server.url + path, { redirect: 'manual', headers }).then((response) => response.status);

  it('counts pages and API calls by route pattern and status, with their time, and database statements', async () => {
    const before = await scrape();
    expect(before.status).toBe(200);
    expect(before.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await get('/en/about')).toBe(200);
    expect(await get('/fr/about')).toBe(404);
    expect(await get('/api/health/live')).toBe(200);
    expect(await get(withId(INBOX_API.message, '8d3f5a2e-0000-4000-8000-000000000000'))).toBe(401);
    expect(await get(withId(INBOX_API.message, '11111111-0000-4000-8000-000000000000'))).toBe(401);
    const after = await scrape();

    const count = (text: string, labels: Record<string, string>) =>
      sample(text, 'site_http_request_duration_seconds_count', labels);
    const moved = (labels: Record<string, string>) => count(after.text, labels) - count(before.text, labels);
    expect(moved({ method: 'GET', route: '/:lang/about', status: '200' })).toBe(1);
    // A page the build lacks in that language is counted under the same pattern, with its status.
    expect(moved({ method: 'GET', route: '/:lang/about', status: '404' })).toBe(1);
    expect(moved({ method: 'GET', route: '/api/health/live', status: '200' })).toBe(1);
    expect(moved({ method: 'GET', route: INBOX_API.message, status: '401' })).toBe(2);
    // The scrape before this one is counted too.
    expect(moved({ method: 'GET', route: METRICS_PATH, status: '200' })).toBe(1);
    expect(after.text).not.toContain('8d3f5a2e');
    // Every request within the histogram's last bucket, and some time spent.
    const labels = { method: 'GET', route: '/:lang/about', status: '200' };
    expect(sample(after.text, 'site_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(1);
    expect(sample(after.text, 'site_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    // The console's guard read the session: statements were timed.
    expect(sample(after.text, 'site_db_statement_duration_seconds_count')).toBeGreaterThan(
      sample(before.text, 'site_db_statement_duration_seconds_count'),
    );
  });

  it('reads the pool, the jobs, the oldest waiting and failing mail, streams and hashing when scraped', async () => {
    const [mail, failing] = [`metrics-wait-${Date.now()}`, `metrics-fail-${Date.now()}`];
    // A mail waiting for an hour, not due for another; a job whose last try failed two hours ago.
    await enqueue(api.db(), 'mail.send', { marker: mail }, { delaySeconds: 3600 });
    await enqueue(api.db(), 'test.metrics', { marker: failing }, { delaySeconds: 3600 });
    await api
      .db()
      .query("UPDATE jobs SET created_at = now() - interval '1 hour' WHERE payload->>'marker' = $1", [mail]);
    await api
      .db()
      .query(
        `UPDATE jobs SET created_at = now() - interval '2 hours', last_error = 'refused' WHERE payload->>'marker' = $1`,
        [failing],
      );
    const visitor = api.client(api.app({ metrics, db: metrics.timed(api.db()) }));
    try {
      expect((await visitor.post(CHAT_API.messages, chatMessage('Hello from the metrics test'))).status).toBe(201);
      const stream = await visitorStream(visitor);
      await stream.ready();
      const { text } = await scrape();
      await stream.close();

      expect(sample(text, 'site_jobs_read_ok')).toBe(1);
      expect(sample(text, 'site_jobs', { kind: 'mail.send', state: 'later' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'site_jobs', { kind: 'test.metrics', state: 'later' })).toBe(1);
      expect(sample(text, 'site_jobs_failing', { kind: 'test.metrics' })).toBe(1);
      expect(sample(text, 'site_mail_waiting_oldest_age_seconds')).toBeGreaterThanOrEqual(3600);
      expect(sample(text, 'site_jobs_failing_oldest_age_seconds')).toBeGreaterThanOrEqual(7200);
      expect(sample(text, 'site_db_connections', { state: 'max' })).toBe(api.target.kind === 'pglite' ? 1 : 10);
      expect(text).toMatch(/^site_db_connections\{state="in_use"\} \d+$/m);
      expect(sample(text, 'site_event_streams_open', { audience: 'visitor' })).toBe(1);
      for (const lane of ['known', 'account', 'other']) {
        expect(text).toMatch(new RegExp(`^site_password_hashing\\{state="waiting_${lane}"\\} 0$`, 'm'));
      }
    } finally {
      await api.db().query("DELETE FROM jobs WHERE payload->>'marker' IN ($1, $2)", [mail, failing]);
    }
    const { text } = await scrape();
    expect(sample(text, 'site_event_streams_open', { audience: 'visitor' })).toBe(0);
    expect(sample(text, 'site_jobs_failing', { kind: 'test.metrics' })).toBe(0);
  });

  it('answers only this machine without a proxy, or the bearer of METRICS_TOKEN', async () => {
    const proxied = await scrape({ 'X-Forwarded-For': '203.0.113.9' });
    expect(proxied.status).toBe(401);
    expect(proxied.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(JSON.parse(proxied.text)).toEqual({ error: { code: 'UNAUTHORIZED' } });
    expect(proxied.text).not.toContain('site_');
    const proxies: Record<string, string>[] = [
      { Forwarded: 'for=203.0.113.9' },
      { Via: '1.1 proxy' },
      { 'X-Real-IP': '203.0.113.9' },
    ];
    for (const via of proxies) {
      expect((await scrape(via)).status).toBe(401);
    }
    const wrong = await scrape({ 'X-Forwarded-For': '203.0.113.9', Authorization: `Bearer ${TOKEN}x` });
    expect(wrong.status).toBe(401);
    const bearer = await scrape({ 'X-Forwarded-For': '203.0.113.9', Authorization: `Bearer ${TOKEN}` });
    expect(bearer.status).toBe(200);
    expect(bearer.text).toContain('site_http_request_duration_seconds_bucket');

    // Without a token set, a proxied request has no way in.
    const closed = await startTestServer(api.app(), files, security);
    try {
      const response = await fetch(closed.url + METRICS_PATH, {
        headers: { 'X-Forwarded-For': '203.0.113.9', Authorization: 'Bearer ' },
      });
      expect(response.status).toBe(401);
    } finally {
      await closed.close();
    }
  });
});
