import type { Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { isLanguage } from '../../common/languages.ts';
import { pagePath, resolvePath } from '../../common/routes.ts';
import { storageEntry } from '../../common/storage.ts';
import { pickEncoding, type StaticFile } from '../static-files.ts';

const LANGUAGE_COOKIE = storageEntry('languageCookie').name;

function send(c: Context, file: StaticFile): Response {
  const headers: Record<string, string> = {
    'Content-Type': file.type,
    'Cache-Control': file.cacheControl,
    ETag: file.etag,
    Vary: 'Accept-Encoding',
  };
  if (c.req.header('If-None-Match') === file.etag) return c.body(null, 304, headers);
  const encoding = pickEncoding(file, c.req.header('Accept-Encoding'));
  if (encoding) headers['Content-Encoding'] = encoding;
  const body = encoding === 'br' ? file.br : encoding === 'gzip' ? file.gzip : file.body;
  return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
}

/**
 * The built site: files by exact path, pages by the routing rules. Unknown and malformed paths are
 * redirected, never looked up on disk.
 */
export function siteRoutes(app: Hono, files: Map<string, StaticFile>) {
  app.on(['GET', 'HEAD'], '*', (c) => {
    const url = new URL(c.req.url);
    const file = files.get(url.pathname);
    if (file && !url.pathname.endsWith('.html')) return send(c, file);
    if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/locales/')) {
      return c.text('Not found', 404, { 'Cache-Control': 'no-cache' });
    }

    const resolution = resolvePath(url.pathname, url.search);
    if (resolution.kind === 'redirect') return c.redirect(resolution.location, 302);
    if (resolution.kind === 'page') {
      const page = files.get(`${pagePath(resolution.language, resolution.page)}/index.html`);
      return page ? send(c, page) : c.text('Not found', 404);
    }
    // The root: a language cookie decides at once; otherwise the root page asks the browser.
    const remembered = getCookie(c, LANGUAGE_COOKIE);
    if (isLanguage(remembered)) return c.redirect(pagePath(remembered, 'home') + url.search, 302);
    const root = files.get('/index.html');
    return root ? send(c, root) : c.text('Not found', 404);
  });
  app.all('*', (c) => c.text('Method not allowed', 405, { Allow: 'GET, HEAD' }));
}
