import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Driver } from './database.ts';

export async function openPglite(dataDir: string): Promise<Driver> {
  // PGlite creates its own folder but not the ones above it.
  await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create(path.join(dataDir, 'pglite'));
  return {
    kind: 'pglite',
    query: async <T>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows,
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          query: async <T>(sql: string, params?: unknown[]) => (await tx.query<T>(sql, params)).rows,
          exec: async (sql) => {
            await tx.exec(sql);
          },
        }),
      ),
    close: () => db.close(),
  };
}
