import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { type Database, type DatabaseOptions, openDatabase } from '#server/platform/db/database.ts';
import { newSchemaName, schemaOn } from './postgres-schemas.ts';

/** An empty place to open a database in, for one test suite; `drop` removes it and all it holds. */
export interface TestStore {
  options: DatabaseOptions;
  drop(): Promise<void>;
}

export interface TestTarget {
  name: string;
  kind: 'pglite' | 'postgres';
  skip: boolean;
  createStore(): Promise<TestStore>;
}

const postgresUrl = process.env.TEST_DATABASE_URL;

/**
 * A new data folder holding a copy of the run's migrated embedded database
 * (tests/support/database-template.ts): opening it takes a second where creating one takes ten.
 */
export async function copyOfTemplate(): Promise<string> {
  const template = inject('pgliteTemplate');
  if (!template) throw new Error('A suite that opens a database belongs in a file named *.db.test.ts (vite.config.ts)');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'site-db-test-'));
  await cp(path.join(template, 'pglite'), path.join(dataDir, 'pglite'), { recursive: true });
  return dataDir;
}

async function pgliteStore(): Promise<TestStore> {
  const dataDir = await copyOfTemplate();
  return { options: { dataDir }, drop: () => rm(dataDir, { recursive: true, force: true }) };
}

/**
 * A fresh schema per store, set as every pooled connection's search_path through the `options`
 * connection parameter, so parallel and repeated runs never see each other's tables.
 */
async function postgresStore(): Promise<TestStore> {
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is not set');
  const schema = await schemaOn(postgresUrl, newSchemaName('test'));
  return {
    options: { dataDir: path.join(tmpdir(), 'unused-by-postgres'), databaseUrl: schema.url },
    drop: schema.drop,
  };
}

export const targets: TestTarget[] = [
  { name: 'PGlite', kind: 'pglite', skip: false, createStore: pgliteStore },
  { name: 'PostgreSQL', kind: 'postgres', skip: !postgresUrl, createStore: postgresStore },
];

/**
 * The one way to run tests on a database: declares the suite once per test database, each on a
 * fresh store opened before its tests and dropped after them. PGlite always; PostgreSQL when
 * TEST_DATABASE_URL points at one (CI sets it; otherwise that suite is reported as skipped).
 */
export function describeOnDatabases(
  name: string,
  body: (db: () => Database, suite: { target: TestTarget; store(): TestStore }) => void,
) {
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
      body(() => db, { target, store: () => store });
    });
  }
}
