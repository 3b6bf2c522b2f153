import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { lockDataDir, restrictTree, syncTree } from '#server/platform/db/data-dir.ts';
import type { SnapshotReport } from '#server/platform/db/pglite-snapshot.ts';

/**
 * A backup is a folder, kept for its owner only (0700, files 0600):
 * - `backup.json`: what it holds (this manifest);
 * - `pglite/`: the embedded database's folder, or `database.dump`: pg_dump's custom format;
 * - `server-secret`: the server's key as DATA_DIR keeps it, without which stored codes, rate limit
 *   keys and visitor identifiers mean nothing; `SERVER_SECRET` too when the server was given it so.
 */
export interface BackupManifest {
  format: 1;
  kind: 'pglite' | 'postgres';
  createdAt: string;
  /** PostgreSQL: the schema the site's tables live in (the connection's current schema). */
  schema?: string;
  /** Whether the instances were given SERVER_SECRET (then restore says to set it again). */
  secretFromEnvironment: boolean;
}

export const MANIFEST_FILE = 'backup.json';
export const PGLITE_FOLDER = 'pglite';
export const DUMP_FILE = 'database.dump';
const SECRET_FILE = 'server-secret';
const SECRET_ENV_FILE = 'SERVER_SECRET';

/** Makes `folder`, which must not exist, for its owner only (and its parent, when missing). */
export async function newBackupFolder(folder: string): Promise<void> {
  await mkdir(path.dirname(folder), { recursive: true, mode: 0o700 });
  await mkdir(folder, { mode: 0o700 });
}

/** Runs a PostgreSQL client program; rejects with what it wrote when it fails. */
function run(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.once('error', (error) =>
      reject(new Error(`${program} could not run (${error.message}); install PostgreSQL's client programs`)),
    );
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${program} failed (${code}): ${errors.trim().slice(0, 2_000)}`)),
    );
  });
}

/**
 * The address as libpq reads it: the WHATWG URL writes a space in a query value as `+`, which
 * node-postgres reads as a space and libpq (pg_dump, pg_restore) does not.
 */
function libpqUrl(url: string): string {
  const parsed = new URL(url);
  const query = [...parsed.searchParams]
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  parsed.search = '';
  return query ? `${parsed.href}?${query}` : parsed.href;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The schema the site's tables live in: the connection's own (search_path), `public` by default. */
const currentSchema = (url: string) =>
  withClient(url, async (client) => {
    const { rows } = await client.query<{ schema: string | null }>('SELECT current_schema() AS schema');
    const schema = rows[0]?.schema;
    if (!schema) throw new Error('The database connection has no current schema (does the search_path exist?)');
    return schema;
  });

/**
 * PostgreSQL: pg_dump in its custom format, of the site's schema. pg_dump reads in one
 * repeatable-read transaction, so the dump is the database as it was at one moment, while the
 * instances keep writing.
 */
export async function dumpPostgres(url: string, folder: string): Promise<{ schema: string }> {
  const schema = await currentSchema(url);
  await run('pg_dump', [
    '--format=custom',
    `--schema=${schema}`,
    `--file=${path.join(folder, DUMP_FILE)}`,
    `--dbname=${libpqUrl(url)}`,
  ]);
  return { schema };
}

/** The embedded database of a server that is not running: its folder, held so that none starts meanwhile. */
export async function copyStoppedPglite(dataDir: string, target: string): Promise<SnapshotReport> {
  const started = performance.now();
  const lock = await lockDataDir(dataDir);
  try {
    await cp(path.join(dataDir, PGLITE_FOLDER), target, { recursive: true, errorOnExist: true, force: false });
  } finally {
    await lock.release();
  }
  const entries = await readdir(target, { recursive: true, withFileTypes: true });
  const ms = performance.now() - started;
  return { files: entries.filter((entry) => entry.isFile()).length, bytes: 0, heldMs: ms, totalMs: ms };
}

/** Writes the server secret and the manifest beside the data, then flushes the whole folder to the disk. */
export async function finishBackup(
  folder: string,
  manifest: BackupManifest,
  secret: Buffer,
  secretFromEnvironment: string | undefined,
) {
  const owner = { mode: 0o600, flag: 'wx' } as const;
  await writeFile(path.join(folder, SECRET_FILE), secret.toString('base64url'), owner);
  if (secretFromEnvironment) await writeFile(path.join(folder, SECRET_ENV_FILE), `${secretFromEnvironment}\n`, owner);
  await writeFile(path.join(folder, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, owner);
  await restrictTree(folder);
  await syncTree(folder);
}

export async function readManifest(folder: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(folder, MANIFEST_FILE), 'utf8')) as BackupManifest;
  } catch {
    throw new Error(`${folder} is not a backup: it has no readable ${MANIFEST_FILE}`);
  }
  if (manifest.format !== 1 || (manifest.kind !== 'pglite' && manifest.kind !== 'postgres'))
    throw new Error(`${folder}/${MANIFEST_FILE} is of a format this version does not know`);
  return manifest;
}

/** What `folder` holds, or none when it does not exist. */
const entriesOf = (folder: string) =>
  readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });

/**
 * Puts the server secret back into DATA_DIR, where the server reads it when SERVER_SECRET is not
 * set; a different key already there is kept, and said.
 */
async function restoreSecret(folder: string, dataDir: string): Promise<string> {
  const secret = await readFile(path.join(folder, SECRET_FILE), 'utf8');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, SECRET_FILE);
  const present = await readFile(file, 'utf8').catch(() => null);
  if (present === null) {
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' });
    return `server secret written to ${file}`;
  }
  if (present === secret) return `server secret already in ${file}`;
  return `${file} holds another server secret and was kept: replace it with ${path.join(folder, SECRET_FILE)} before starting`;
}

/** The embedded database back into DATA_DIR, which must be empty (or not exist). */
export async function restorePglite(folder: string, dataDir: string): Promise<string[]> {
  const present = await entriesOf(dataDir);
  if (present.length > 0)
    throw new Error(
      `DATA_DIR ${dataDir} is not empty (it holds ${present.slice(0, 5).join(', ')}${present.length > 5 ? ', …' : ''}). ` +
        'A restore never overwrites data: move that folder away, or name an empty one in DATA_DIR.',
    );
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700);
  const target = path.join(dataDir, PGLITE_FOLDER);
  try {
    await cp(path.join(folder, PGLITE_FOLDER), target, { recursive: true, errorOnExist: true, force: false });
    const secretLine = await restoreSecret(folder, dataDir);
    await restrictTree(dataDir);
    await syncTree(dataDir);
    return [`embedded database restored into ${target}`, secretLine];
  } catch (error) {
    await rm(target, { recursive: true, force: true });
    throw error;
  }
}

/**
 * PostgreSQL: pg_restore into a database whose schema holds nothing yet (an empty schema of that
 * name is dropped first, since the dump creates it), in one transaction: all or nothing. Objects
 * belong to whoever restores (the owner's role may not exist on a new server).
 */
export async function restorePostgres(folder: string, url: string, manifest: BackupManifest, dataDir: string) {
  const schema = manifest.schema ?? 'public';
  await withClient(url, async (client) => {
    const { rows } = await client.query<{ relations: number; exists: boolean }>(
      `SELECT (SELECT count(*)::integer FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname = $1) AS relations,
              EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS exists`,
      [schema],
    );
    const relations = rows[0]?.relations ?? 0;
    if (relations > 0)
      throw new Error(
        `The database already holds ${relations} tables, sequences or indexes in schema "${schema}". ` +
          'A restore never overwrites data: restore into an empty database (createdb), or drop that schema first.',
      );
    // An empty schema is what a new database has (public) or what an operator made: the dump makes it.
    if (rows[0]?.exists && schema !== 'public') await client.query(`DROP SCHEMA ${pg.escapeIdentifier(schema)}`);
  });
  await run('pg_restore', [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    '--single-transaction',
    `--dbname=${libpqUrl(url)}`,
    path.join(folder, DUMP_FILE),
  ]);
  return [`PostgreSQL schema "${schema}" restored`, await restoreSecret(folder, dataDir)];
}

/** The key as the server was given it, when it was given SERVER_SECRET: to be set on every instance again. */
export const secretEnvFile = (folder: string) => path.join(folder, SECRET_ENV_FILE);
