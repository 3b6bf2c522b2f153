/** What every database driver provides, and the error it raises when the database does not answer. */
import type { ListenOptions, NotificationHandler, Unlisten } from './listener.ts';
import type { SnapshotReport } from './pglite-snapshot.ts';

export interface Database {
  /** One statement with `$1`-style parameters; the same SQL runs on PGlite and PostgreSQL. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Use only
   * `tx` inside: on PGlite a query on the database itself waits for the transaction and never ends.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Whether the database answers a trivial query within `timeoutMs`: the readiness of /api/health. */
  ping(timeoutMs: number): Promise<boolean>;
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
  /** How its connections are used right now, for the metrics. */
  usage(): PoolUse;
  kind: 'pglite' | 'postgres';
  /**
   * The embedded database only: a consistent copy of its folder in `target` (which must not exist),
   * made while it serves (`npm run backup`, docs/decisions/170). PostgreSQL is backed up with pg_dump.
   */
  snapshot?(target: string): Promise<SnapshotReport>;
}

/** Connections in use and idle, requests waiting for one, and the most there may be (PGlite has one). */
export interface PoolUse {
  inUse: number;
  idle: number;
  waiting: number;
  max: number;
}

/**
 * The database did not answer in time, or cannot be reached: a passing condition, not a fault of
 * the request, answered 503 (see http/api-error.ts). The pool drops a broken connection, so the
 * next request gets a fresh one once the database is back.
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/** How long the server waits on its database before it answers 503 rather than hang. */
export interface DatabaseTimeouts {
  /** To get a connection (PostgreSQL: open one, or wait for a free one in the pool). */
  connectMs: number;
  /**
   * For one statement: PostgreSQL cancels it (statement_timeout), and the client gives up a little
   * later on a server that stopped answering at all. On PGlite, which runs one statement at a time
   * in this process, it bounds the wait for the statements before it instead.
   */
  statementMs: number;
}

export const DEFAULT_TIMEOUTS: DatabaseTimeouts = { connectMs: 3_000, statementMs: 5_000 };

export type Queryable = Pick<Database, 'query'>;

/** A transaction that can also run a migration file, which may hold several statements. */
export interface ScriptTransaction extends Queryable {
  exec(sql: string): Promise<void>;
}

export interface Driver extends Database {
  transaction<T>(fn: (tx: ScriptTransaction) => Promise<T>): Promise<T>;
}
