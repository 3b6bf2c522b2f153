import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { StaticFile } from './build-files.ts';
import { createSiteHandler } from './site-handler.ts';

/** One HTTP listener for the whole product: the built site first, then the API. */
export function createListener(
  app: { fetch: (request: Request) => Response | Promise<Response> },
  files: Map<string, StaticFile>,
  security: Record<string, string>,
) {
  const site = createSiteHandler(files, security);
  const api = getRequestListener(app.fetch);
  return (req: IncomingMessage, res: ServerResponse) => {
    if (!site(req, res)) void api(req, res);
  };
}
