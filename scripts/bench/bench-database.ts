// A database of a bench's own: with DATABASE_URL a schema of that PostgreSQL, else PGlite in a
// folder under the system's temporary one. `name` names both; `drop` removes it and all it holds.
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type DatabaseTimeouts, openDatabase } from '#server/platform/db/database.ts';

const url = process.env.DATABASE_URL;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Opens the bench's database, made if it is not there yet (a kept one is opened again). */
export async function openBenchDatabase(name: string, timeouts?: Partial<DatabaseTimeouts>) {
  let databaseUrl: string | undefined;
  const dataDir = url ? '' : path.join(tmpdir(), name);
  if (url) {
    await admin(`CREATE SCHEMA IF NOT EXISTS ${name}`);
    const scoped = new URL(url);
    scoped.searchParams.set('options', `-c search_path=${name}`);
    databaseUrl = scoped.toString();
  } else {
    await mkdir(dataDir, { recursive: true });
  }
  const db = await openDatabase({ dataDir, databaseUrl, timeouts });
  return {
    db,
    kind: url ? 'PostgreSQL' : 'PGlite',
    drop: () => (url ? admin(`DROP SCHEMA ${name} CASCADE`) : rm(dataDir, { recursive: true, force: true })),
  };
}
