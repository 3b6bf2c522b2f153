import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestStore, targets } from '#tests/support/databases.ts';
import { aheadInLine, type Database, openDatabase } from './database.ts';

const OPEN_TIMEOUT = 60_000;

const migrationNames = (await readdir(new URL('./migrations/', import.meta.url)))
  .filter((name) => name.endsWith('.sql'))
  .sort();

for (const target of targets) {
  // PostgreSQL is only there when TEST_DATABASE_URL points at one; CI sets it.
  describe.skipIf(target.skip)(`database on ${target.name}`, () => {
    let store: TestStore;
    let db: Database;

    beforeAll(async () => {
      store = await target.createStore();
      db = await openDatabase(store.options);
      await db.query('CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)');
    }, OPEN_TIMEOUT);

    afterAll(async () => {
      await db?.close();
      await store?.drop();
    });

    const bodies = async () =>
      (await db.query<{ body: string }>('SELECT body FROM notes ORDER BY id')).map((row) => row.body);

    it(`opens ${target.kind}`, () => {
      expect(db.kind).toBe(target.kind);
      if (target.kind === 'pglite') expect(existsSync(path.join(store.options.dataDir, 'pglite'))).toBe(true);
    });

    it('applies each migration once and keeps data across opens', { timeout: OPEN_TIMEOUT }, async () => {
      const applied = () =>
        db.query<{ name: string; applied_at: Date }>('SELECT name, applied_at FROM schema_migrations ORDER BY name');
      const first = await applied();
      expect(first.map((row) => row.name)).toEqual(migrationNames);
      await db.query(`INSERT INTO rate_limits (key, hits, expires_at) VALUES ('kept', 1, now())`);

      await db.close();
      db = await openDatabase(store.options);

      expect(await applied()).toEqual(first);
      expect(await db.query('SELECT key FROM rate_limits')).toEqual([{ key: 'kept' }]);
    });

    // A PGlite folder belongs to one process; only PostgreSQL is shared by instances starting together.
    it.skipIf(target.kind === 'pglite')('lets two instances start at once', { timeout: OPEN_TIMEOUT }, async () => {
      const fresh = await target.createStore();
      try {
        const instances = await Promise.all([openDatabase(fresh.options), openDatabase(fresh.options)]);
        const names = await instances[0]?.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
        expect(names?.map((row) => row.name)).toEqual(migrationNames);
        await Promise.all(instances.map((instance) => instance.close()));
      } finally {
        await fresh.drop();
      }
    });

    it('commits a transaction that resolves', async () => {
      const result = await db.transaction(async (tx) => {
        await tx.query('INSERT INTO notes (body) VALUES ($1)', ['committed']);
        return 'done';
      });
      expect(result).toBe('done');
      expect(await bodies()).toContain('committed');
    });

    it('rolls back a transaction that throws, and passes the error on', async () => {
      const failure = new Error('stop');
      const run = db.transaction(async (tx) => {
        await tx.query('INSERT INTO notes (body) VALUES ($1)', ['rolled back']);
        expect(await tx.query('SELECT 1 FROM notes WHERE body = $1', ['rolled back'])).toHaveLength(1);
        throw failure;
      });
      await expect(run).rejects.toBe(failure);
      expect(await bodies()).not.toContain('rolled back');
    });

    it('rolls back a transaction whose statement fails, and stays usable', async () => {
      const run = db.transaction(async (tx) => {
        await tx.query('INSERT INTO notes (body) VALUES ($1)', ['before the error']);
        await tx.query('INSERT INTO notes (body) VALUES (NULL)');
      });
      await expect(run).rejects.toThrow(/null/i);
      expect(await bodies()).not.toContain('before the error');
      expect(await db.query('SELECT $1::integer + 1 AS n', [2])).toEqual([{ n: 3 }]);
    });

    it('reads bigint and date the same way on both databases', async () => {
      const [row] = await db.query(
        `SELECT count(*) AS n, 9007199254740993::bigint AS huge, '2024-02-29'::date AS day FROM notes`,
      );
      expect(row).toEqual({ n: expect.any(Number), huge: 9007199254740993n, day: new Date('2024-02-29T00:00:00Z') });
    });

    it('gives the next free connection to a statement run ahead in line, before those that waited longer', async () => {
      const { max } = db.usage();
      const releases: (() => void)[] = [];
      const holders = Array.from({ length: max }, () =>
        db.transaction(async (tx) => {
          await tx.query('SELECT 1');
          await new Promise<void>((resolve) => releases.push(resolve));
        }),
      );
      await vi.waitFor(() => expect(releases).toHaveLength(max));
      const order: string[] = [];
      const inTurn = db.query('SELECT 1').then(() => order.push('in turn'));
      const ahead = aheadInLine(true, () => db.query('SELECT 2')).then(() => order.push('ahead'));
      try {
        await vi.waitFor(() => expect(db.usage().waiting).toBe(2));
        // One connection comes free: it goes to the statement ahead in line, the other still waits.
        releases.shift()?.();
        await ahead;
        expect(order).toEqual(['ahead']);
      } finally {
        for (const release of releases) release();
        await Promise.all([...holders, inTurn]);
      }
      expect(order).toEqual(['ahead', 'in turn']);
    });
  });
}
