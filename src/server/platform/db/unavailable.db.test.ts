import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { type ApiApp, createApp } from '#server/app.ts';
import { securityHeaders } from '#server/http/security-headers.ts';
import { type Answer, TEST_HASHING, TEST_SECRET, TestClient } from '#tests/support/api.ts';
import { type TestStore, targets } from '#tests/support/databases.ts';
import { schemaOf } from '#tests/support/postgres-schemas.ts';
import { startTcpProxy, type TcpProxy } from '#tests/support/tcp-proxy.ts';
import { type Database, openDatabase } from './database.ts';

/**
 * Shorter than the server's own (see DEFAULT_TIMEOUTS), so that the tests do not wait long, and
 * long enough that a busy machine still connects in time when the database is fine.
 */
const TIMEOUTS = { connectMs: 2_000, statementMs: 1_000 };
const HEALTH_TIMEOUT_MS = 300;
const OPEN_TIMEOUT = 60_000;

const appOn = (db: Database) =>
  createApp({
    db,
    secret: TEST_SECRET,
    trustedProxies: 1,
    security: securityHeaders(),
    settings: { passwordHashing: TEST_HASHING, healthTimeoutMs: HEALTH_TIMEOUT_MS },
  });

/** A sign-in for an address no account has: rate limits, a lookup and a hash; 401 when all is well. */
const signIn = (app: ApiApp) =>
  new TestClient(app).post(ACCOUNT_API.login, { email: 'nobody@example.com', password: 'not a password' });

const health = async (app: ApiApp) => {
  const response = await app.request('/api/health');
  return { status: response.status, headers: response.headers, body: await response.json() };
};

/** Liveness never asks the database: 200 whatever it does. */
const live = async (app: ApiApp) => (await app.request('/api/health/live')).status;

const expectUnavailable = (answer: Pick<Answer, 'status' | 'headers' | 'body'>) => {
  expect(answer.status).toBe(503);
  expect(answer.body).toEqual({ error: { code: 'SERVER_ERROR' } });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
};

/** Asks again until the answer is the one wanted (the pool reconnects on its own), or gives up. */
async function eventually(ask: () => Promise<{ status: number }>, status: number, tries = 100) {
  let last = await ask();
  for (let n = 1; n < tries && last.status !== status; n++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await ask();
  }
  expect(last.status).toBe(status);
}

const postgres = targets.find((target) => target.kind === 'postgres');

/** Each test waits out a few timeouts. */
const TEST_TIMEOUT = 30_000;

describe.skipIf(!postgres || postgres.skip)(
  'the API while PostgreSQL hangs or is down',
  { timeout: TEST_TIMEOUT },
  () => {
    let store: TestStore;
    let proxy: TcpProxy;
    let db: Database;
    let app: ApiApp;
    let direct: pg.Client;
    const applicationName = `outage_${randomBytes(6).toString('hex')}`;

    beforeAll(async () => {
      store = await (postgres as NonNullable<typeof postgres>).createStore();
      const url = new URL(store.options.databaseUrl as string);
      proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      proxied.searchParams.set('application_name', applicationName);
      db = await openDatabase({ ...store.options, databaseUrl: proxied.href, timeouts: TIMEOUTS });
      app = appOn(db);
      direct = new pg.Client({ connectionString: url.href });
      await direct.connect();
    }, OPEN_TIMEOUT);

    afterAll(async () => {
      await direct?.end();
      await db?.close();
      await proxy?.close();
      await store?.drop();
    });

    it('is ready when the database answers', async () => {
      expect(await health(app)).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect((await signIn(app)).status).toBe(401);
    });

    it('answers 503 SERVER_ERROR while the database is down, and recovers by itself', async () => {
      proxy.cut();
      expectUnavailable(await health(app));
      expect(await live(app)).toBe(200);
      expectUnavailable(await signIn(app));
      proxy.restore();
      await eventually(() => health(app), 200);
      expect((await signIn(app)).status).toBe(401);
    });

    it('answers 503 SERVER_ERROR while the database hangs, and recovers by itself', async () => {
      proxy.hang();
      expectUnavailable(await health(app));
      expect(await live(app)).toBe(200);
      expectUnavailable(await signIn(app));
      proxy.restore();
      await eventually(() => health(app), 200);
      expect((await signIn(app)).status).toBe(401);
    });

    it('cancels a statement that waits on a lock held elsewhere, and stays ready', async () => {
      await direct.query('BEGIN');
      const schema = schemaOf(store.options.databaseUrl as string);
      await direct.query(`LOCK TABLE ${schema}.rate_limits IN ACCESS EXCLUSIVE MODE`);
      try {
        expectUnavailable(await signIn(app));
        expect((await health(app)).status).toBe(200);
      } finally {
        await direct.query('ROLLBACK');
      }
      expect((await signIn(app)).status).toBe(401);
    });

    it('replaces connections the database ended, without a 500', async () => {
      expect((await signIn(app)).status).toBe(401);
      const { rows } = await direct.query(
        'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1',
        [applicationName],
      );
      expect(rows.length).toBeGreaterThan(0);
      const answers: number[] = [];
      await eventually(async () => {
        const answer = await signIn(app);
        answers.push(answer.status);
        return answer;
      }, 401);
      expect(answers.filter((status) => status !== 401 && status !== 503)).toEqual([]);
    });
  },
);

describe('the API while the embedded database is held up', { timeout: TEST_TIMEOUT }, () => {
  let store: TestStore;
  let db: Database;
  let app: ApiApp;

  beforeAll(async () => {
    store = await (targets.find((target) => target.kind === 'pglite') as (typeof targets)[number]).createStore();
    db = await openDatabase({ ...store.options, timeouts: TIMEOUTS });
    app = appOn(db);
  }, OPEN_TIMEOUT);

  afterAll(async () => {
    await db?.close();
    await store?.drop();
  });

  it('answers 503 SERVER_ERROR while a transaction holds it, changes nothing later, and recovers', async () => {
    let finish = () => {};
    const held = db.transaction(() => new Promise<void>((resolve) => (finish = resolve)));
    try {
      expectUnavailable(await health(app));
      expectUnavailable(await signIn(app));
    } finally {
      finish();
      await held;
    }
    // The refused requests never reached the database: not even their rate limit hits were counted.
    expect(await db.query('SELECT count(*)::integer AS n FROM rate_limits')).toEqual([{ n: 0 }]);
    expect(await health(app)).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect((await signIn(app)).status).toBe(401);
  });
});
