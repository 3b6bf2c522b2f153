import type { ListenOptions, NotificationHandler, Unlisten } from './listener.ts';
import { runMigrations } from './migrations.ts';
import type { ListenerSettings } from './pg-listener.ts';
import { openPglite } from './pglite-driver.ts';
import { openPostgres } from './postgres-driver.ts';

export {
  type ListenOptions,
  MAX_NOTIFY_PAYLOAD_BYTES,
  type NotificationHandler,
  notifyIn,
  type Unlisten,
} from './listener.ts';

export interface Database {
  /** One statement with `$1`-style parameters; the same SQL runs on PGlite and PostgreSQL. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Use only
   * `tx` inside: on PGlite a query on the database itself waits for the transaction and never ends.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `handler` with the payload of every notification on `channel` (see `notify`), from this
   * process or any other on the same database; resolves once listening. On PGlite the database
   * lives in this process, so this is an in-process bus. On PostgreSQL one dedicated connection per
   * handle listens; when it is lost it reconnects by itself and then calls `onResync`, since what
   * was sent meanwhile is lost: read it from the database.
   */
  listen(channel: string, handler: NotificationHandler, options?: ListenOptions): Promise<Unlisten>;
  /** Sends a notification now; inside a transaction, use `notifyIn(tx, ...)`, delivered at COMMIT. */
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
  kind: 'pglite' | 'postgres';
}

export type Queryable = Pick<Database, 'query'>;

/** A transaction that can also run a migration file, which may hold several statements. */
export interface ScriptTransaction extends Queryable {
  exec(sql: string): Promise<void>;
}

export interface Driver extends Database {
  transaction<T>(fn: (tx: ScriptTransaction) => Promise<T>): Promise<T>;
}

export interface DatabaseOptions {
  /** PGlite keeps its files in `${dataDir}/pglite`. */
  dataDir: string;
  /** When set, PostgreSQL is used instead and several server instances can share it. */
  databaseUrl?: string;
  /** PostgreSQL's listening connection: how it reconnects and checks itself (tests make it quick). */
  listener?: Partial<ListenerSettings>;
}

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

/** Opens the database and brings its schema up to date before anyone queries it. */
export async function openDatabase({ dataDir, databaseUrl, listener }: DatabaseOptions): Promise<Database> {
  const driver = databaseUrl ? openPostgres(databaseUrl, listener) : await openPglite(dataDir);
  try {
    await runMigrations(driver, MIGRATIONS_DIR);
  } catch (error) {
    await driver.close();
    throw error;
  }
  return driver;
}

/** Runs a DELETE statement (without RETURNING) and says how many rows it removed, on both databases alike. */
export async function deleteCounting(db: Queryable, deleteSql: string, params?: unknown[]): Promise<number> {
  const [row] = await db.query<{ deleted: number }>(
    `WITH gone AS (${deleteSql} RETURNING 1) SELECT count(*)::integer AS deleted FROM gone`,
    params,
  );
  return row?.deleted ?? 0;
}
