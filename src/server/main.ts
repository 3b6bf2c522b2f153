import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { readEnv } from './env.ts';
import type { InlineHashes } from './security-headers.ts';
import { loadStaticFiles } from './static-files.ts';

async function main() {
  const env = readEnv();
  await mkdir(env.DATA_DIR, { recursive: true });
  const files = await loadStaticFiles(path.join(env.SITE_DIR, 'client'));
  const inline = JSON.parse(await readFile(path.join(env.SITE_DIR, 'inline-hashes.json'), 'utf8')) as InlineHashes;
  const app = createApp({ files, inline });

  const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
    console.log(`Serving on http://localhost:${info.port} (data in ${env.DATA_DIR})`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
