import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { type InlineHashes, securityHeaders } from './http/security-headers.ts';
import { readEnv } from './platform/env.ts';
import { log } from './platform/log.ts';
import { ownAddress } from './platform/site-config.ts';
import { loadStaticFiles } from './site/build-files.ts';
import { createListener } from './site/listener.ts';
import { startApi } from './start.ts';

/** Reads the environment and the build, opens the database, and serves; stops cleanly on a signal. */
async function main() {
  // Everything the server writes (the secret, the embedded database, its lock) is for its owner only.
  process.umask(0o077);
  const env = readEnv();
  const files = await loadStaticFiles(path.join(env.SITE_DIR, 'client'));
  const inline = JSON.parse(await readFile(path.join(env.SITE_DIR, 'inline-hashes.json'), 'utf8')) as InlineHashes;
  const security = securityHeaders(inline);
  const api = await startApi(env, security);

  const server = createServer(createListener(api.app, files, security, api.metrics));
  server.listen(env.PORT, env.HOST, () => {
    log.info(`Serving on ${ownAddress(env.HOST, env.PORT)} (${api.summary})`);
  });
  const stop = () => {
    server.close(() => api.stop().finally(() => process.exit(0)));
    // Event streams never end by themselves: requests under way get a moment, then what is left is
    // cut, and browsers reconnect (to another instance) from the last event they saw.
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2_000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  log.fatal(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
