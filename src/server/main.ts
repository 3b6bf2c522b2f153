import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { createApp } from './app.ts';
import { openDatabase } from './db/database.ts';
import { readEnv } from './env.ts';
import { createListener } from './listener.ts';
import { loadServerSecret } from './secrets.ts';
import { type InlineHashes, securityHeaders } from './security-headers.ts';
import { loadStaticFiles } from './static-files.ts';

async function main() {
  const env = readEnv();
  await mkdir(env.DATA_DIR, { recursive: true });
  const files = await loadStaticFiles(path.join(env.SITE_DIR, 'client'));
  const inline = JSON.parse(await readFile(path.join(env.SITE_DIR, 'inline-hashes.json'), 'utf8')) as InlineHashes;
  const security = securityHeaders(inline);
  const db = await openDatabase({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
  const secret = await loadServerSecret(env.DATA_DIR, env.SERVER_SECRET);
  const app = createApp({ db, secret, trustedProxies: env.TRUST_PROXY, security });

  const server = createServer(createListener(app, files, security));
  server.listen(env.PORT, env.HOST, () => {
    const store = env.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${env.DATA_DIR}`;
    console.log(`Serving on http://localhost:${env.PORT} (data: ${store})`);
  });
  const stop = () => server.close(() => db.close().finally(() => process.exit(0)));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
