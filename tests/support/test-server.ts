import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiApp } from '#server/app.ts';
import type { StaticFile } from '#server/site/build-files.ts';
import { createListener } from '#server/site/listener.ts';

/** The product's real HTTP listener on a free loopback port, for tests that need the wire. */
export async function startTestServer(
  app: ApiApp,
  files: Map<string, StaticFile>,
  security: Record<string, string>,
  options?: Parameters<typeof createListener>[3],
) {
  const server = createServer(createListener(app, files, security, options));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
