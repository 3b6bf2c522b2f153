import pg from 'pg';
import type { Driver } from './database.ts';
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

export function openPostgres(connectionString: string, listenerSettings: Partial<ListenerSettings> = {}): Driver {
  const pool = new pg.Pool({ connectionString, types });
  // An idle connection that the server drops emits 'error' on the pool; unheard, it would end the
  // process. The pool discards that connection and opens a new one when it needs it.
  pool.on('error', (error) => console.error('PostgreSQL idle connection lost:', error.message));
  const listener = new PgListener(connectionString, { ...DEFAULT_LISTENER_SETTINGS, ...listenerSettings });

  const driver: Driver = {
    kind: 'postgres',
    query: async <T>(sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows as T[],
    transaction: async (fn) => {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
          exec: async (sql) => {
            // Without parameters pg uses the simple protocol, which accepts several statements.
            await client.query(sql);
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        // A connection that cannot even roll back is in an unknown state: destroy it, never reuse it.
        client.release(broken);
      }
    },
    listen: (channel, handler, options) => listener.listen(channel, handler, options),
    notify: (channel, payload) => notifyIn(driver, channel, payload),
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
  return driver;
}
