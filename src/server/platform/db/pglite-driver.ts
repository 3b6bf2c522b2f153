import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Driver } from './database.ts';
import { checkChannel, notifyIn, Subscribers } from './listener.ts';

export async function openPglite(dataDir: string): Promise<Driver> {
  // PGlite creates its own folder but not the ones above it.
  await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create(path.join(dataDir, 'pglite'));
  // PGlite has one connection and no network: what it hears, it hears in this process, and it
  // cannot lose its connection, so no resync is ever needed.
  const subscribers = new Subscribers();
  const stops = new Map<string, () => Promise<void>>();
  const driver: Driver = {
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
    listen: async (channel, handler, options = {}) => {
      checkChannel(channel);
      const subscription = subscribers.add(channel, handler, options);
      if (subscription.first) {
        stops.set(channel, await db.listen(channel, (payload) => subscribers.deliver(channel, payload)));
      }
      return async () => {
        if (!subscription.remove()) return;
        const stop = stops.get(channel);
        stops.delete(channel);
        if (!db.closed) await stop?.();
      };
    },
    notify: (channel, payload) => notifyIn(driver, channel, payload),
    close: () => db.close(),
  };
  return driver;
}
