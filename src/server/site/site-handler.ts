import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { parse as parseCookies } from 'hono/utils/cookie';
import { isLanguage, type Language } from '#common/languages.ts';
import {
  CONSOLE_ROOT,
  isConsolePath,
  needsSession,
  type PageId,
  pagePath,
  resolvePath,
  signedOutPage,
} from '#common/routes.ts';
import { storageEntry } from '#common/storage.ts';
import { FILE_POLICY, OPENER_ISOLATION } from '#server/http/security-headers.ts';
import { pickEncoding, type StaticFile } from './build-files.ts';

const LANGUAGE_COOKIE = storageEntry('languageCookie').name;
const SIGNED_IN_COOKIE = storageEntry('signedIn').name;
/** The operator console's page (see scripts/build/prerender.ts). */
const CONSOLE_PAGE = `${CONSOLE_ROOT}/index.html`;

/**
 * The page a request for `page` is answered with, by its cookies: a page only a signed-in visitor
 * can use is the sign-in page, at the address asked for, when the signed-in cookie is not there.
 * One round trip, and the loader then shows the sign-in address (decision 092).
 */
export function servedPageFor(page: PageId, cookieHeader: string | undefined): PageId {
  const signedIn = parseCookies(cookieHeader ?? '', SIGNED_IN_COOKIE)[SIGNED_IN_COOKIE] === '1';
  return signedIn ? page : signedOutPage(page);
}

/** A file's answer, with every header worked out once at start rather than on each request. */
interface PreparedFile {
  file: StaticFile;
  headers: OutgoingHttpHeaders;
}

/**
 * Serves the built site straight from Node's HTTP layer: files by exact path, pages by the routing
 * rules, unknown and malformed paths redirected. Nothing is looked up on disk per request, and a
 * page costs a map lookup and one write, which is what lets one process keep up with nginx on the
 * same files. Answers false for what it does not serve (the API, other methods).
 */
export function createSiteHandler(files: Map<string, StaticFile>, security: Record<string, string>) {
  const prepared = new Map<string, PreparedFile>();
  for (const [urlPath, file] of files) {
    prepared.set(urlPath, {
      file,
      headers: {
        ...security,
        ...(file.type.startsWith('text/html') ? {} : { 'Content-Security-Policy': FILE_POLICY }),
        'Content-Type': file.type,
        'Cache-Control': file.cacheControl,
        ETag: file.etag,
        // Only a file with compressed forms varies with the encoding asked for (an image has none).
        ...(file.br || file.gzip ? { Vary: 'Accept-Encoding' } : {}),
      },
    });
  }
  const redirectHeaders = { ...security, 'Cache-Control': 'no-cache' };
  // Every console address gets the console's one page; the app reads the rest of the path. Search
  // engines are told to leave it out, whatever a link to it says.
  const consoleFile = prepared.get(CONSOLE_PAGE);
  const consolePage = consoleFile && {
    ...consoleFile,
    headers: { ...consoleFile.headers, ...OPENER_ISOLATION, 'X-Robots-Tag': 'noindex, nofollow' },
  };

  const send = (req: IncomingMessage, res: ServerResponse, entry: PreparedFile | undefined) => {
    if (!entry) {
      res.writeHead(404, { ...redirectHeaders, 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    if (req.headers['if-none-match'] === entry.file.etag) {
      res.writeHead(304, entry.headers).end();
      return;
    }
    const encoding = pickEncoding(entry.file, req.headers['accept-encoding']);
    const body = encoding === 'br' ? entry.file.br : encoding === 'gzip' ? entry.file.gzip : entry.file.body;
    const headers = encoding ? { ...entry.headers, 'Content-Encoding': encoding } : entry.headers;
    res.writeHead(200, { ...headers, 'Content-Length': String(body?.length ?? 0) });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  // A page only a signed-in visitor can use is answered by its cookies, so it varies with them as
  // well as with the encoding; sign-in standing in for it is indexed at its own address only.
  const sendPage = (req: IncomingMessage, res: ServerResponse, language: Language, page: PageId) => {
    const served = servedPageFor(page, req.headers.cookie);
    const entry = prepared.get(`${pagePath(language, served)}/index.html`);
    if (!entry || !needsSession(page)) return send(req, res, entry);
    const headers = { Vary: ['Accept-Encoding', 'Cookie'], ...(served !== page ? { 'X-Robots-Tag': 'noindex' } : {}) };
    send(req, res, { ...entry, headers: { ...entry.headers, ...headers } });
  };

  const redirect = (res: ServerResponse, location: string) => {
    res.writeHead(302, { ...redirectHeaders, Location: location }).end();
  };

  const route = (req: IncomingMessage, res: ServerResponse, pathname: string, search: string) => {
    const file = pathname.endsWith('.html') ? undefined : prepared.get(pathname);
    if (file) return send(req, res, file);
    if (pathname.startsWith('/assets/') || pathname.startsWith('/locales/')) return send(req, res, undefined);
    if (isConsolePath(pathname)) return send(req, res, consolePage);

    const resolution = resolvePath(pathname, search);
    if (resolution.kind === 'redirect') return redirect(res, resolution.location);
    if (resolution.kind === 'page') return sendPage(req, res, resolution.language, resolution.page);
    // The root: a language cookie decides at once; otherwise the root page asks the browser.
    const remembered = parseCookies(req.headers.cookie ?? '', LANGUAGE_COOKIE)[LANGUAGE_COOKIE];
    if (isLanguage(remembered)) return redirect(res, pagePath(remembered, 'home') + search);
    return send(req, res, prepared.get('/index.html'));
  };

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const target = req.url ?? '/';
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (!target.startsWith('/') || target === '/api' || target.startsWith('/api/')) return false;
    const queryAt = target.indexOf('?');
    route(req, res, queryAt < 0 ? target : target.slice(0, queryAt), queryAt < 0 ? '' : target.slice(queryAt));
    return true;
  };
}
