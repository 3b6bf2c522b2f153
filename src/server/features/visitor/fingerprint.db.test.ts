import { expect, it } from 'vitest';
import { describeApi, freshAddress, TEST_SECRET } from '#tests/support/api.ts';
import { verifyFpid } from './fpid.ts';

const record = (overrides: Record<string, unknown> = {}) => ({
  visitorId: '0123456789abcdef0123456789abcdef',
  components: { canvas: 'a1b2c3d4e5f60718a1b2c3d4e5f60718', fonts: '00112233445566778899aabbccddeeff' },
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0',
  timestamp: 1_790_000_000_000,
  ...overrides,
});

const post = (body: unknown, headers: Record<string, string> = {}, address = freshAddress()) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address, ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describeApi('/api/fingerprint', ({ app, db }) => {
  it('answers a good record with an fpid that is stable, verifiable and not the visitorId', async () => {
    const first = await app().request('/api/fingerprint', post(record()));
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const { fpid } = (await first.json()) as { fpid: string };
    expect(verifyFpid(TEST_SECRET, fpid)).toBe(true);
    expect(fpid).not.toContain(record().visitorId);

    const again = await app().request('/api/fingerprint', post(record({ timestamp: 1_790_000_999_000 })));
    expect(await again.json()).toEqual({ fpid });
    const other = await app().request('/api/fingerprint', post(record({ visitorId: 'f'.repeat(32) })));
    expect(((await other.json()) as { fpid: string }).fpid).not.toBe(fpid);
  });

  it('gives the same fpid on two instances that share only the secret', async () => {
    const [a, b] = await Promise.all([
      app().request('/api/fingerprint', post(record())),
      app({ trustedProxies: 0 }).request('/api/fingerprint', post(record())),
    ]);
    expect(await a.json()).toEqual(await b.json());
    const elsewhere = await app({ secret: Buffer.alloc(32, 9) }).request('/api/fingerprint', post(record()));
    expect(await elsewhere.json()).not.toEqual(await (await app().request('/api/fingerprint', post(record()))).json());
  });

  it.each([
    ['an empty body', ''],
    ['non-JSON', 'visitorId=abc'],
    ['JSON null', 'null'],
    ['a list', '[]'],
    ['a record without visitorId', JSON.stringify({ components: {}, userAgent: 'x', timestamp: 1 })],
  ])('answers %s with FINGERPRINT_REQUIRED', async (_, body) => {
    const response = await app().request('/api/fingerprint', post(body));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'FINGERPRINT_REQUIRED' } });
  });

  it.each([
    ['a visitorId of the wrong shape', { visitorId: 'not-a-hash' }],
    ['an upper-case visitorId', { visitorId: 'ABCDEF0123456789ABCDEF0123456789' }],
    ['a visitorId that is a number', { visitorId: 42 }],
    ['components that are not an object', { components: 'x' }],
    ['too many components', { components: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`c${i}`, 'x'])) }],
    ['a component too long', { components: { canvas: 'x'.repeat(129) } }],
    ['a component with a nested value', { components: { canvas: { deep: [1, 2, 3] } } }],
    ['a component name with markup', { components: { '<script>': 'x' } }],
    ['a user agent too long', { userAgent: 'x'.repeat(1025) }],
    ['a missing user agent', { userAgent: undefined }],
    ['a timestamp that is text', { timestamp: '2026-01-01' }],
    ['a negative timestamp', { timestamp: -5 }],
    ['an unknown field', { admin: true }],
  ])('answers %s with INVALID_FINGERPRINT', async (_, overrides) => {
    const response = await app().request('/api/fingerprint', post(record(overrides)));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'INVALID_FINGERPRINT' } });
  });

  it('refuses a body over its limit, however large', async () => {
    for (const size of [20_000, 200_000]) {
      const response = await app().request('/api/fingerprint', post(record({ userAgent: 'x'.repeat(size) })));
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ error: { code: 'INVALID_FINGERPRINT' } });
    }
  });

  it('survives a body nested to death', async () => {
    const response = await app().request('/api/fingerprint', post(`${'['.repeat(8000)}${']'.repeat(8000)}`));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'FINGERPRINT_REQUIRED' } });
  });

  it('wants JSON', async () => {
    const response = await app().request('/api/fingerprint', post(record(), { 'Content-Type': 'text/plain' }));
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: { code: 'FINGERPRINT_REQUIRED' } });
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('refuses %s with 405', async (method) => {
    const response = await app().request('/api/fingerprint', { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toEqual({ error: { code: 'INVALID_REQUEST' } });
  });

  it('limits each client on each instance, in memory: nothing is written per request', async () => {
    const address = freshAddress();
    const instance = app({});
    for (let i = 0; i < 60; i++) {
      expect((await instance.request('/api/fingerprint', post(record(), {}, address))).status).toBe(200);
    }
    const refused = await instance.request('/api/fingerprint', post(record(), {}, address));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: { code: 'TOO_MANY_REQUESTS' } });
    // Someone else is still served, and another instance counts the same client afresh.
    expect((await instance.request('/api/fingerprint', post(record()))).status).toBe(200);
    expect((await app({}).request('/api/fingerprint', post(record(), {}, address))).status).toBe(200);
    expect(await db().query('SELECT key FROM rate_limits WHERE key LIKE $1', ['fingerprint:%'])).toEqual([]);
  });

  it('takes the limit its settings give', async () => {
    const address = freshAddress();
    const strict = app({ settings: { fingerprintRateLimit: 2 } });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await strict.request('/api/fingerprint', post(record(), {}, address))).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
