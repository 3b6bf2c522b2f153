import { Hono } from 'hono';
import type { ErrorCode } from '../common/error-codes.ts';
import { siteRoutes } from './routes/site.ts';
import { type InlineHashes, securityHeaders } from './security-headers.ts';
import type { StaticFile } from './static-files.ts';

export interface AppOptions {
  files: Map<string, StaticFile>;
  inline: InlineHashes;
}

export const apiError = (code: ErrorCode) => ({ error: { code } });

/** The whole server: security headers on everything, the API, then the site. */
export function createApp({ files, inline }: AppOptions): Hono {
  const app = new Hono();
  app.use(securityHeaders(inline));

  app.get('/api/health', (c) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' }));
  app.all('/api/*', (c) => c.json(apiError('INVALID_REQUEST'), 404));

  siteRoutes(app, files);

  app.onError((error, c) => {
    console.error(error);
    return c.json(apiError('SERVER_ERROR'), 500);
  });
  return app;
}
