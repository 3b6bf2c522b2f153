import { readFile } from 'node:fs/promises';
import { flushCompileCache } from 'node:module';
import path from 'node:path';
import { drainableServer } from './drain.ts';
import { type InlineHashes, securityHeaders } from './http/security-headers.ts';
import { readEnv } from './platform/env.ts';
import { log } from './platform/log.ts';
import { lowerPoolPriority } from './platform/pool-priority.ts';
import { ownAddress } from './platform/site-config.ts';
import { loadStaticFiles } from './site/build-files.ts';
import { createListener } from './site/listener.ts';
import { startApi } from './start.ts';

/** Reads the environment and the build, opens the database, and serves; stops cleanly on a signal. */
async function main() {
  // Everything the server writes (the secret, the embedded database, its lock) is for its owner only.
  process.umask(0o077);
  const env = readEnv();
  // The inline code the build made: each page's policy allows what of it the page carries.
  const inline = JSON.parse(await readFile(path.join(env.SITE_DIR, 'inline-hashes.json'), 'utf8')) as InlineHashes;
  const files = await loadStaticFiles(path.join(env.SITE_DIR, 'client'), inline);
  // Hashing yields the processors to the pages when both want them (decision 263).
  await lowerPoolPriority();
  const security = securityHeaders();
  const http = drainableServer();
  const api = await startApi(env, security, http.draining, { siteDir: env.SITE_DIR, files, inline });
  const { server } = http;
  server.on('request', createListener(api.app, files, security, api));
  server.listen(env.PORT, env.HOST, () => {
    log.info(`Serving on ${ownAddress(env.HOST, env.PORT)} (${api.summary})`);
    // With NODE_COMPILE_CACHE set (`npm run serve`), the code V8 compiled for the server's build is
    // on disk now rather than at exit, so the next start compiles less, even after a crash; run
    // from the source, what Node stripped of its types is kept too (docs/decisions/230 and 260).
    // Without it, this does nothing.
    flushCompileCache();
  });
  // Unready at once, then the requests under way finish and the event streams move elsewhere;
  // the jobs and the database close last.
  const stop = () => {
    log.info('Stopping: finishing the requests under way');
    http.drain(() => api.stop().finally(() => process.exit(0)));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  log.fatal(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
