// A database of a bench's own: with DATABASE_URL a schema of that PostgreSQL, else PGlite in a
// folder under the system's temporary one. `name` names both; `drop` removes it and all it holds.
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DatabaseTimeouts, openDatabase } from '#server/platform/db/database.ts';
import { schemaOn } from '#tests/support/postgres-schemas.ts';

const url = process.env.DATABASE_URL;

/** Opens the bench's database, made if it is not there yet (a kept one is opened again). */
export async function openBenchDatabase(name: string, timeouts?: Partial<DatabaseTimeouts>) {
  const dataDir = url ? '' : path.join(tmpdir(), name);
  const schema = url ? await schemaOn(url, name) : undefined;
  if (!schema) await mkdir(dataDir, { recursive: true });
  const db = await openDatabase({ dataDir, databaseUrl: schema?.url, timeouts });
  return {
    db,
    kind: url ? 'PostgreSQL' : 'PGlite',
    drop: () => schema?.drop() ?? rm(dataDir, { recursive: true, force: true }),
  };
}
