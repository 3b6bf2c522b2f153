import { type AppOptions, createApp } from './app.ts';
import type { Database } from './db/database.ts';
import { describeOnDatabases } from './db/describe-databases.ts';
import { securityHeaders } from './security-headers.ts';

export const TEST_SECRET = Buffer.alloc(32, 7);

export interface ApiTestContext {
  db(): Database;
  /** An app on this suite's database; every test picks its own client address (X-Forwarded-For). */
  app(options?: Partial<AppOptions>): ReturnType<typeof createApp>;
}

/** API tests through `app.request()` on every test database (see describeOnDatabases). */
export function describeApi(name: string, body: (context: ApiTestContext) => void) {
  describeOnDatabases(name, (db) =>
    body({
      db,
      app: (options) =>
        createApp({
          security: securityHeaders({ scripts: [], styles: [] }),
          db: db(),
          secret: TEST_SECRET,
          trustedProxies: 1,
          ...options,
        }),
    }),
  );
}

let address = 0;
/** A client address no other test uses, so rate limits of one test never touch another. */
export const freshAddress = () => `192.0.2.${++address}`;
