import type { Database, Queryable } from './driver.ts';

/**
 * The same database, with the time of every statement (in a transaction too) told to `record` in
 * seconds, failed ones included: what the metrics' statement histogram counts.
 */
export function timedDatabase(db: Database, record: (seconds: number) => void): Database {
  const timed = async <T>(run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      record((performance.now() - started) / 1000);
    }
  };
  const timedQueries = (target: Queryable): Queryable => ({
    query: <T>(sql: string, params?: unknown[]) => timed(() => target.query<T>(sql, params)),
  });
  return {
    ...db,
    ...timedQueries(db),
    transaction: (fn) => db.transaction((tx) => fn({ ...tx, ...timedQueries(tx) })),
  };
}
