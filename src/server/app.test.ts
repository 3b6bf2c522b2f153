import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import { openDatabase } from './db/database.ts';
import { targets } from './db/test-databases.ts';
import { securityHeaders } from './security-headers.ts';

const store = await (targets[0] as (typeof targets)[number]).createStore();
const db = await openDatabase(store.options);
afterAll(async () => {
  await db.close();
  await store.drop();
});
const security = securityHeaders({ scripts: [], styles: [] });
const app = createApp({ db, secret: Buffer.alloc(32, 1), trustedProxies: 0, security });

describe('api', () => {
  it('reports health, with the security headers', async () => {
    const response = await app.request('/api/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('answers a body over the size limit with an error code', async () => {
    const response = await app.request('/api/health', {
      method: 'POST',
      body: 'x'.repeat(100 * 1024),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: { code: 'INVALID_REQUEST' } });
  });

  it('answers an unknown endpoint with an error code', async () => {
    const response = await app.request('/api/nope', { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'INVALID_REQUEST' } });
  });

  it('refuses methods the site does not take', async () => {
    const response = await app.request('/en', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});
