import { afterAll, beforeAll, describe } from 'vitest';
import { type AppOptions, createApp } from './app.ts';
import { type Database, openDatabase } from './db/database.ts';
import { type TestStore, targets } from './db/test-databases.ts';

export const TEST_SECRET = Buffer.alloc(32, 7);

export interface ApiTestContext {
  db(): Database;
  /** An app on this suite's database; every test picks its own client address (X-Forwarded-For). */
  app(options?: Partial<AppOptions>): ReturnType<typeof createApp>;
}

/**
 * Runs API tests on every test database: PGlite always, PostgreSQL when TEST_DATABASE_URL is set
 * (otherwise that suite is skipped and says so).
 */
export function describeApi(name: string, body: (context: ApiTestContext) => void) {
  for (const target of targets) {
    describe.skipIf(target.skip)(`${name} on ${target.name}`, () => {
      let store: TestStore;
      let db: Database;
      beforeAll(async () => {
        store = await target.createStore();
        db = await openDatabase(store.options);
      }, 60_000);
      afterAll(async () => {
        await db?.close();
        await store?.drop();
      });
      body({
        db: () => db,
        app: (options) =>
          createApp({
            files: new Map(),
            inline: { scripts: [], styles: [] },
            db,
            secret: TEST_SECRET,
            trustedProxies: 1,
            ...options,
          }),
      });
    });
  }
}

let address = 0;
/** A client address no other test uses, so rate limits of one test never touch another. */
export const freshAddress = () => `192.0.2.${++address}`;
