import { readdir, readFile } from 'node:fs/promises';
import type { Driver, Queryable, ScriptTransaction } from './driver.ts';

// Any fixed number works as long as nothing else in the database uses it as an advisory lock.
const MIGRATION_LOCK = 4_711_200_001;

const MIGRATION_FILE = /^\d{3}-[a-z0-9-]+\.sql$/;

/**
 * Several server instances may start at once against one PostgreSQL: each step takes a
 * transaction-scoped advisory lock, so they apply the files one at a time, and the lock is freed
 * by COMMIT or ROLLBACK even when an instance dies half-way.
 */
async function locked(tx: ScriptTransaction): Promise<void> {
  // A migration, or the wait for another instance's, may take longer than a request's statement.
  await tx.exec(`SET LOCAL statement_timeout = 0; SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
}

/** The migration files of `dir`, in the order they apply. */
async function migrationNames(dir: URL): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  const misnamed = names.find((name) => !MIGRATION_FILE.test(name));
  if (misnamed) throw new Error(`Migration ${misnamed} must be named NNN-name.sql`);
  return names;
}

/** The files of `dir` the database has not recorded as applied (readiness: none may be missing). */
export async function missingMigrations(db: Queryable, dir: URL): Promise<string[]> {
  const names = await migrationNames(dir);
  const applied = await db.query<{ name: string }>('SELECT name FROM schema_migrations WHERE name = ANY($1::text[])', [
    names,
  ]);
  const done = new Set(applied.map(({ name }) => name));
  return names.filter((name) => !done.has(name));
}

/** Applies each file of `dir` not yet recorded, in name order, each in its own transaction. */
export async function runMigrations(db: Driver, dir: URL): Promise<void> {
  const names = await migrationNames(dir);

  await db.transaction(async (tx) => {
    await locked(tx);
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
  });
  for (const name of names) {
    const sql = await readFile(new URL(name, dir), 'utf8');
    await db.transaction(async (tx) => {
      await locked(tx);
      // Checked under the lock: another instance may have applied it since this one started.
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name]);
      if (done.length > 0) return;
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
    });
  }
}
