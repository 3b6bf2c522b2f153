import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '#server/platform/site-config.ts';
import { type Database, type DatabaseTimeouts, DEFAULT_TIMEOUTS, type Queryable } from './driver.ts';
import { missingMigrations, runMigrations } from './migrations.ts';
import type { ListenerSettings } from './pg-listener.ts';

export {
  type Database,
  type DatabaseTimeouts,
  DatabaseUnavailableError,
  DEFAULT_TIMEOUTS,
  type Driver,
  type PoolUse,
  type Queryable,
  type ScriptTransaction,
} from './driver.ts';
export { aheadInLine } from './gate.ts';
export {
  type ListenOptions,
  MAX_NOTIFY_PAYLOAD_BYTES,
  type NotificationHandler,
  notifyIn,
  type Unlisten,
} from './listener.ts';

export interface DatabaseOptions {
  /** PGlite keeps its files in `${dataDir}/pglite`. */
  dataDir: string;
  /** When set, PostgreSQL is used instead and several server instances can share it. */
  databaseUrl?: string;
  timeouts?: Partial<DatabaseTimeouts>;
  /** PostgreSQL's listening connection: how it reconnects and checks itself (tests make it quick). */
  listener?: Partial<ListenerSettings>;
}

/** The migrations are read from the source, also by the server's build (dist/server). */
const MIGRATIONS_DIR = pathToFileURL(path.join(ROOT, 'src/server/platform/db/migrations/'));

/** Opens the database and brings its schema up to date before anyone queries it. */
export async function openDatabase({ dataDir, databaseUrl, timeouts, listener }: DatabaseOptions): Promise<Database> {
  const limits = { ...DEFAULT_TIMEOUTS, ...timeouts };
  // Each driver is loaded only where it is used: the embedded one's code alone is half a megabyte
  // a server on PostgreSQL would otherwise keep in memory.
  const driver = databaseUrl
    ? (await import('./postgres-driver.ts')).openPostgres(databaseUrl, limits, listener)
    : await (await import('./pglite-driver.ts')).openPglite(dataDir, limits);
  try {
    await runMigrations(driver, MIGRATIONS_DIR);
  } catch (error) {
    await driver.close();
    throw error;
  }
  return driver;
}

/** The migrations of this version of the server that the database has not applied. */
export const unappliedMigrations = (db: Queryable) => missingMigrations(db, MIGRATIONS_DIR);

/** Runs a DELETE statement (without RETURNING) and says how many rows it removed, on both databases alike. */
export async function deleteCounting(db: Queryable, deleteSql: string, params?: unknown[]): Promise<number> {
  const [row] = await db.query<{ deleted: number }>(
    `WITH gone AS (${deleteSql} RETURNING 1) SELECT count(*)::integer AS deleted FROM gone`,
    params,
  );
  return row?.deleted ?? 0;
}
