import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { withId } from '#common/api-paths.ts';
import { CHAT_API, CONSOLE_CHAT_API } from '#common/chat-api.ts';
import { INBOX_API } from '#common/inbox-api.ts';
import { STAFF_API } from '#common/staff-api.ts';
import { describeApi, ORIGIN } from '#tests/support/api.ts';
import { signedInOperator } from '#tests/support/chat.ts';
import { captureLog } from '#tests/support/log.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

describeApi('the request layer', (api) => {
  const { app, db } = api;
  it('reports health, with the security headers', async () => {
    const response = await app().request('/api/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('is alive without asking the database, and ready only with the database, its migrations and the job runner', async () => {
    const get = async (path: string, application = app()) => {
      const response = await application.request(path);
      return { status: response.status, body: await response.json(), cache: response.headers.get('cache-control') };
    };
    const ok = { status: 200, body: { status: 'ok' }, cache: 'no-store' };
    const unready = { status: 503, body: { error: { code: 'SERVER_ERROR' } } };
    const running = app({ jobs: { alive: () => true } });
    expect(await get('/api/health/live', running)).toEqual(ok);
    expect(await get('/api/health/ready', running)).toEqual(ok);
    expect(await get('/api/health', running)).toEqual(ok);

    const log = captureLog();
    try {
      const stalled = app({ jobs: { alive: () => false } });
      expect(await get('/api/health/ready', stalled)).toMatchObject(unready);
      expect(await get('/api/health', stalled)).toMatchObject(unready);
      expect(await get('/api/health/live', stalled)).toEqual(ok);
      expect(log.messages()).toContain('Not ready: the job runner is not running');

      // An instance told to stop is out of rotation at once, and alive until it ends.
      const stopping = app({ jobs: { alive: () => true }, draining: () => true });
      expect(await get('/api/health/ready', stopping)).toMatchObject(unready);
      expect(await get('/api/health/live', stopping)).toEqual(ok);
      expect(log.messages()).toContain('Not ready: the server is stopping');

      // A database a step behind this server (an older backup put back, say).
      await db().query("DELETE FROM schema_migrations WHERE name = '004-job-leases.sql'");
      try {
        // A new app: the shared one knows its migrations were all there.
        const behind = app({});
        expect(await get('/api/health/ready', behind)).toMatchObject(unready);
        expect(await get('/api/health/live', behind)).toEqual(ok);
        expect(log.messages()).toContain('Not ready: migrations not applied: 004-job-leases.sql');
      } finally {
        await db().query("INSERT INTO schema_migrations (name) VALUES ('004-job-leases.sql')");
      }
    } finally {
      log.restore();
    }
    expect(await get('/api/health/ready', app())).toEqual(ok);
  });

  it('answers a body over the size limit with an error code', async () => {
    const response = await app().request('/api/auth/login', {
      method: 'POST',
      body: 'x'.repeat(100 * 1024),
      headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: { code: 'INVALID_REQUEST' } });
  });

  it('answers an unknown endpoint with an error code', async () => {
    const response = await app().request('/api/nope', {
      method: 'POST',
      body: '{}',
      headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'NOT_FOUND' } });
  });

  it('answers a missing item with 404 NOT_FOUND in every feature', async () => {
    const { client: admin } = await signedInOperator(api, 'admin');
    const missing = randomUUID();
    const answers = [
      await admin.get(withId(INBOX_API.message, missing)),
      await admin.post(withId(INBOX_API.status, missing), { status: 'read' }),
      await admin.post(withId(STAFF_API.role, missing), { role: 'operator' }),
      await admin.get(CONSOLE_CHAT_API.conversation(999_999_999)),
      await admin.get(CONSOLE_CHAT_API.conversation('not-a-number' as unknown as number)),
      await api.client().post(CHAT_API.end, {}),
      await api.client().post('/api/nothing-here', {}),
      await api.client().post('/api/posthog/nothing-here', {}),
    ];
    for (const answer of answers) expect([answer.status, answer.body]).toEqual([404, { error: { code: 'NOT_FOUND' } }]);
  });

  it('refuses methods the site does not take', async () => {
    const response = await app().request('/en', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  // Read from the app itself, so that a route added tomorrow is checked without a line of its own.
  const stateChanging = () =>
    app()
      .routes.filter((route) => route.path.startsWith('/api/') && !SAFE.has(route.method))
      .map((route) => ({
        method: route.method === 'ALL' ? 'POST' : route.method,
        path: route.path.replace('/*', '/e'),
      }));
  // Beacons carry no session; the staff and backup commands prove themselves with a token derived
  // from the secret.
  const COMMANDS = ['/api/internal/staff', '/api/internal/backup'];
  const BEACONS = ['/api/fingerprint', '/api/posthog/e', '/api/traces', ...COMMANDS];
  const isBeacon = (path: string) => BEACONS.some((beacon) => beacon.startsWith(path));

  it('guards every state-changing API route by default: another site’s Origin gets 403, no Origin too', async () => {
    const routes = stateChanging().filter(({ path }) => !isBeacon(path));
    expect(routes.length).toBeGreaterThan(5);
    for (const { method, path } of routes) {
      for (const origin of ['https://evil.example', 'http://localhost:8080', 'https://localhost', undefined]) {
        const response = await app().request(path, {
          method,
          body: '{}',
          headers: { 'Content-Type': 'application/json', ...(origin ? { Origin: origin } : {}) },
        });
        expect(response.status, `${method} ${path} from ${origin}`).toBe(403);
        expect(response.headers.get('cache-control')).toBe('no-store');
      }
    }
  });

  // The contact form and the account forms also take the plain form post of a browser without JavaScript.
  const FORM_POSTS = [
    '/api/contact/messages',
    ACCOUNT_API.register,
    ACCOUNT_API.verify,
    ACCOUNT_API.login,
    ACCOUNT_API.forgotPassword,
    ACCOUNT_API.resetPassword,
  ] as string[];

  it('takes only JSON on every state-changing API route by default', async () => {
    const routes = stateChanging().filter(({ path }) => !isBeacon(path) || COMMANDS.includes(path));
    for (const { method, path } of routes) {
      const types = ['text/plain', 'multipart/form-data; boundary=x'];
      if (!FORM_POSTS.includes(path)) types.push('application/x-www-form-urlencoded');
      for (const type of types) {
        const response = await app().request(path, {
          method,
          body: 'a=b',
          headers: { 'Content-Type': type, Origin: ORIGIN },
        });
        expect(response.status, `${method} ${path} as ${type}`).toBe(415);
      }
    }
  });

  it('lifts the Origin check only for the beacons their features declare', async () => {
    for (const path of BEACONS) {
      const response = await app().request(path, {
        method: 'POST',
        body: '{}',
        headers: { 'Content-Type': 'application/json', Origin: 'https://elsewhere.example' },
      });
      expect(response.status, path).not.toBe(403);
    }
  });
});
