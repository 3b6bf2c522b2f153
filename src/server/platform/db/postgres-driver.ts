import pg from 'pg';
import { errorFields, log } from '#server/platform/log.ts';
import { type DatabaseTimeouts, DatabaseUnavailableError, type Driver } from './driver.ts';
import { createGate } from './gate.ts';
import { notifyIn } from './listener.ts';
import { DEFAULT_LISTENER_SETTINGS, type ListenerSettings, PgListener } from './pg-listener.ts';

// PGlite reads bigint (count(*), bigserial) as a number while it is exact, and a date as UTC
// midnight; pg would give a string and local midnight. Reading them alike here means code and
// tests see the same values on both databases.
const parsers = new Map<number, (value: string) => unknown>([
  [
    pg.types.builtins.INT8,
    (value) => {
      const big = BigInt(value);
      return big >= Number.MIN_SAFE_INTEGER && big <= Number.MAX_SAFE_INTEGER ? Number(big) : big;
    },
  ],
  [
    pg.types.builtins.DATE,
    (value) => (value === 'infinity' ? Infinity : value === '-infinity' ? -Infinity : new Date(value)),
  ],
]);

const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    (format !== 'binary' && parsers.get(oid)) || pg.types.getTypeParser(oid, format),
};

/** SQLSTATE classes and codes that say the database, not the statement, is the trouble. */
const UNAVAILABLE_STATES = /^(08|53|57P0[1-4]|57014|55P03)/;
const UNAVAILABLE_MESSAGES =
  /timeout|terminat|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|not queryable|Connection ended/i;

/**
 * A failure of the connection or a timeout, as DatabaseUnavailableError (answered 503); an error of
 * the statement itself (a constraint, a syntax error) is passed on as it is.
 */
function classify(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof DatabaseUnavailableError) return error;
  const code = (error as { code?: unknown }).code;
  const unavailable =
    typeof code === 'string'
      ? UNAVAILABLE_STATES.test(code) || /^E[A-Z]+$/.test(code)
      : UNAVAILABLE_MESSAGES.test(error.message);
  return unavailable ? new DatabaseUnavailableError(error.message, { cause: error }) : error;
}

const rethrow = (error: unknown): never => {
  throw classify(error);
};

/** Migrations run for as long as they need: no statement timeout, and the client waits for them. */
const NO_CLIENT_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** pg's default pool size, which the server keeps. */
const POOL_SIZE = 10;

/** A statement with its own client-side timeout (pg reads `query_timeout` per query; its types omit it). */
const withClientTimeout = (text: string, ms: number) => ({ text, query_timeout: ms }) as pg.QueryConfig;

export function openPostgres(
  connectionString: string,
  timeouts: DatabaseTimeouts,
  listenerSettings: Partial<ListenerSettings> = {},
): Driver {
  const pool = new pg.Pool({
    connectionString,
    types,
    max: POOL_SIZE,
    // Opening a connection ends with an error rather than never.
    connectionTimeoutMillis: timeouts.connectMs,
    // The server cancels a statement that runs too long (a lock held elsewhere, a slow plan)...
    statement_timeout: timeouts.statementMs,
    // ...and the client gives up on a server that stopped answering at all (a network partition,
    // a hung machine), a little later, so that the server's own cancel comes first when it can.
    query_timeout: timeouts.statementMs + timeouts.connectMs,
    // A transaction left open by a stuck request must not hold its locks forever.
    idle_in_transaction_session_timeout: 2 * timeouts.statementMs,
    // Notices a dead peer on an idle connection, rather than at the next query.
    keepAlive: true,
  });
  // An idle connection that the server drops emits 'error' on the pool; unheard, it would end the
  // process. The pool discards that connection and opens a new one when it needs it.
  pool.on('error', (error) => log.warn(errorFields(error), 'PostgreSQL idle connection lost'));
  const listener = new PgListener(connectionString, { ...DEFAULT_LISTENER_SETTINGS, ...listenerSettings });

  // Requests wait for a connection here rather than in the pool, as long as the pool would have let
  // them wait, so that some can go ahead of others (gate.ts).
  const gate = createGate(POOL_SIZE);
  const inTransaction: Driver['transaction'] = async (fn) => {
    const client = await pool.connect().catch(rethrow);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await fn({
        query: async <T>(sql: string, params?: unknown[]) =>
          (await client.query(sql, params).catch(rethrow)).rows as T[],
        exec: async (sql) => {
          // Without parameters pg uses the simple protocol, which accepts several statements.
          await client.query(withClientTimeout(sql, NO_CLIENT_TIMEOUT_MS));
        },
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw classify(error);
    } finally {
      // A connection that cannot even roll back is in an unknown state: destroy it, never reuse it.
      client.release(broken);
    }
  };

  const driver: Driver = {
    kind: 'postgres',
    query: <T>(sql: string, params?: unknown[]) =>
      gate(timeouts.connectMs, async () => (await pool.query(sql, params).catch(rethrow)).rows as T[]),
    transaction: (fn) => gate(timeouts.connectMs, () => inTransaction(fn)),
    async ping(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const answer = gate(timeoutMs, () => pool.query(withClientTimeout('SELECT 1', timeoutMs))).then(
        () => true,
        () => false,
      );
      try {
        return await Promise.race([answer, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    usage: () => ({
      inUse: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: gate.load().waiting,
      max: POOL_SIZE,
    }),
    listen: (channel, handler, options) => listener.listen(channel, handler, options),
    notify: (channel, payload) => notifyIn(driver, channel, payload),
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
  return driver;
}
