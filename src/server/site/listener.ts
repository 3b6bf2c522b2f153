import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Metrics } from '#server/platform/metrics.ts';
import type { StaticFile } from './build-files.ts';
import { createSiteHandler, type SiteOptions } from './site-handler.ts';

/**
 * One HTTP listener for the whole product: the built site first, then the API. With `metrics`, the
 * pages and files it serves are counted there as the API app counts its own requests; a page is
 * written out before the handler returns, so timing the call times the answer (a share image
 * drawn on its first request is counted without its drawing).
 */
export function createListener(
  app: { fetch: (request: Request) => Response | Promise<Response> },
  files: Map<string, StaticFile>,
  security: Record<string, string>,
  { metrics, drawShareImage }: Pick<SiteOptions, 'drawShareImage'> & { metrics?: Pick<Metrics, 'recordRequest'> } = {},
) {
  const site = createSiteHandler(files, security, { drawShareImage });
  const api = getRequestListener(app.fetch);
  return (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const route = site(req, res);
    if (route === null) void api(req, res);
    else metrics?.recordRequest(req.method ?? 'GET', route, res.statusCode, (performance.now() - started) / 1000);
  };
}
