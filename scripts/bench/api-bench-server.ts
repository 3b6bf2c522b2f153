// The production API on a port, as a child process of the benches (`npm run bench:chat`,
// `bench:fingerprint`, `bench:ingest`) that can tell its memory precisely: asked over IPC, it
// collects garbage first (node --expose-gc) and answers process.memoryUsage(); asked for its
// processor time, it answers process.cpuUsage(). The environment is read as the server reads it;
// the built site's files are served too when BENCH_SITE is set (after `npm run build`).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { securityHeaders } from '#server/http/security-headers.ts';
import { readEnv } from '#server/platform/env.ts';
import { lowerPoolPriority } from '#server/platform/pool-priority.ts';
import { ROOT } from '#server/platform/site-config.ts';
import { loadStaticFiles } from '#server/site/build-files.ts';
import { createListener } from '#server/site/listener.ts';
import { startApi } from '#server/start.ts';

const env = readEnv();
const security = securityHeaders();
const api = await startApi(env, security);
// As the server's start does (src/server/main.ts).
await lowerPoolPriority();
const files = process.env.BENCH_SITE
  ? await loadStaticFiles(
      path.join(ROOT, 'dist/client'),
      JSON.parse(await readFile(path.join(ROOT, 'dist/inline-hashes.json'), 'utf8')),
    )
  : new Map();
const server = createServer(createListener(api.app, files, security));
server.listen(env.PORT, env.HOST, () => process.send?.({ listening: true }));

process.on('message', (message: { memory?: true; cpu?: true; stop?: true }) => {
  if (message.memory) {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ memory: process.memoryUsage() });
  }
  if (message.cpu) process.send?.({ cpu: process.cpuUsage() });
  if (message.stop) {
    server.closeAllConnections();
    server.close(() => api.stop().finally(() => process.exit(0)));
  }
});
