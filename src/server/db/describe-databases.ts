import { afterAll, beforeAll, describe } from 'vitest';
import { type Database, openDatabase } from './database.ts';
import { type TestStore, targets } from './test-databases.ts';

/**
 * Declares a suite once per test database, each on a fresh store opened before its tests and
 * dropped after them: PGlite always, PostgreSQL when TEST_DATABASE_URL points at one (CI sets it;
 * otherwise that suite is reported as skipped).
 */
export function describeOnDatabases(name: string, body: (db: () => Database) => void) {
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
      body(() => db);
    });
  }
}
