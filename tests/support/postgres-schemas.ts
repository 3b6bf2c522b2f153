// A schema of its own on a PostgreSQL, for a test suite or a bench, so that parallel and repeated
// runs never see each other's tables: every pooled connection gets it as its search_path through
// the `options` connection parameter of the address.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const SEARCH_PATH = '-c search_path=';

/** Runs one statement on `url` with a connection of its own (to make or drop a schema). */
async function runAlone(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The schema whose name the address `url` carries (see `schemaOn`). */
export const schemaOf = (url: string) => new URL(url).searchParams.get('options')?.replace(SEARCH_PATH, '') ?? '';

/**
 * Makes the schema `name` on the PostgreSQL at `url` unless it is there (a bench may keep one), and
 * answers the address that works in it and how to drop it with all it holds.
 */
export async function schemaOn(url: string, name: string) {
  await runAlone(url, `CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(name)}`);
  const scoped = new URL(url);
  scoped.searchParams.set('options', `${SEARCH_PATH}${name}`);
  return { url: scoped.href, drop: () => runAlone(url, `DROP SCHEMA ${pg.escapeIdentifier(name)} CASCADE`) };
}

/** A name no other run uses, for `schemaOn`. */
export const newSchemaName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/**
 * Runs `run` with the address of a new schema on the PostgreSQL of DATABASE_URL (or
 * TEST_DATABASE_URL), dropped afterwards: for a bench that needs PostgreSQL.
 */
export async function withBenchSchema<T>(run: (scoped: string) => Promise<T>): Promise<T> {
  const url = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('Set DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL database');
  const schema = await schemaOn(url, newSchemaName('bench'));
  try {
    return await run(schema.url);
  } finally {
    await schema.drop();
  }
}
