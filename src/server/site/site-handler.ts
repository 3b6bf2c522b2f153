import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { parse as parseCookies } from 'hono/utils/cookie';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '#common/languages.ts';
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
import { contentSecurityPolicy, FILE_POLICY, OPENER_ISOLATION } from '#server/http/security-headers.ts';
import { METRICS_PATH } from '#server/platform/metrics.ts';
import { bodyOf, pickEncoding, type StaticFile } from './build-files.ts';

const LANGUAGE_COOKIE = storageEntry('languageCookie').name;
const SIGNED_IN_COOKIE = storageEntry('signedIn').name;
/** The operator console's page (see scripts/build/prerender.ts). */
const CONSOLE_PAGE = `${CONSOLE_ROOT}/index.html`;

/** Route patterns of what the site serves, as the metrics count them; paths themselves are unbounded. */
const ASSETS_ROUTE = '/assets/*';
const LOCALES_ROUTE = '/locales/*';
const CONSOLE_ROUTE = `${CONSOLE_ROOT}/*`;
/** An unknown or malformed path, answered with a redirect to a page. */
const REDIRECT_ROUTE = '(redirect)';

const pageRoutes = new Map<PageId, string>();
/** A page's pattern, its language left open: `/:lang/about`. */
function pageRoute(page: PageId): string {
  let pattern = pageRoutes.get(page);
  if (!pattern) {
    pattern = `/:lang${pagePath(DEFAULT_LANGUAGE, page).slice(DEFAULT_LANGUAGE.length + 1)}`;
    pageRoutes.set(page, pattern);
  }
  return pattern;
}

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

export interface SiteOptions {
  /**
   * Draws a share image a page rendered by this server names when it is first asked for, and
   * puts it into the files (PagePublisher.drawShareImage); undefined when no such image waits.
   */
  drawShareImage?: (urlPath: string) => Promise<void> | undefined;
}

/**
 * Serves the built site straight from Node's HTTP layer: files by exact path, pages by the routing
 * rules, unknown and malformed paths redirected. Nothing is looked up on disk per request, and a
 * page costs a map lookup and one write; a file set into `files` later is served from then on, which is what lets one process keep up with nginx on the
 * same files. Says which route pattern it served, or null for what it leaves to the API (other
 * methods, /metrics).
 */
export function createSiteHandler(
  files: Map<string, StaticFile>,
  security: Record<string, string>,
  { drawShareImage }: SiteOptions = {},
) {
  // Worked out on a file's first use and kept with it: a file a publish replaces (decision 200) gets
  // its own the first time it is served.
  const preparedFiles = new WeakMap<StaticFile, PreparedFile>();
  const prepare = (file: StaticFile): PreparedFile => {
    let entry = preparedFiles.get(file);
    if (!entry) {
      entry = {
        file,
        headers: {
          ...security,
          // A page allows the inline code it carries (decision 250); any other file runs nothing.
          'Content-Security-Policy': file.type.startsWith('text/html')
            ? contentSecurityPolicy(file.inline)
            : FILE_POLICY,
          'Content-Type': file.type,
          'Cache-Control': file.cacheControl,
          ETag: file.etag,
          // Only a file with compressed forms varies with the encoding asked for (an image has none).
          ...(file.br || file.gzip ? { Vary: 'Accept-Encoding' } : {}),
        },
      };
      preparedFiles.set(file, entry);
    }
    return entry;
  };
  const prepared = {
    get: (urlPath: string) => {
      const file = files.get(urlPath);
      return file && prepare(file);
    },
  };
  const redirectHeaders = { ...security, 'Cache-Control': 'no-cache' };
  // Every console address gets the console's one page; the app reads the rest of the path. Search
  // engines are told to leave it out, whatever a link to it says.
  // The page in force: a change of brand renders it again.
  const consolePage = () => {
    const entry = prepared.get(CONSOLE_PAGE);
    return (
      entry && { ...entry, headers: { ...entry.headers, ...OPENER_ISOLATION, 'X-Robots-Tag': 'noindex, nofollow' } }
    );
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
    const body = encoding === 'br' ? entry.file.br : encoding === 'gzip' ? entry.file.gzip : bodyOf(entry.file);
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

  /** Serves a request and says which route pattern it was, for the metrics. */
  const route = (req: IncomingMessage, res: ServerResponse, pathname: string, search: string): string => {
    const file = pathname.endsWith('.html') ? undefined : prepared.get(pathname);
    const folder = pathname.startsWith('/assets/')
      ? ASSETS_ROUTE
      : pathname.startsWith('/locales/')
        ? LOCALES_ROUTE
        : null;
    if (file) {
      send(req, res, file);
      // Hashed names change with every build: counted by their folder, other files by name.
      return folder ?? pathname;
    }
    if (folder) {
      const drawing = folder === ASSETS_ROUTE ? drawShareImage?.(pathname) : undefined;
      if (drawing) void drawing.then(() => send(req, res, prepared.get(pathname)));
      else send(req, res, undefined);
      return folder;
    }
    if (isConsolePath(pathname)) {
      send(req, res, consolePage());
      return CONSOLE_ROUTE;
    }

    const resolution = resolvePath(pathname, search);
    if (resolution.kind === 'redirect') {
      redirect(res, resolution.location);
      return REDIRECT_ROUTE;
    }
    if (resolution.kind === 'page') {
      sendPage(req, res, resolution.language, resolution.page);
      return pageRoute(resolution.page);
    }
    // The root: a language cookie decides at once; otherwise the root page asks the browser.
    const remembered = parseCookies(req.headers.cookie ?? '', LANGUAGE_COOKIE)[LANGUAGE_COOKIE];
    if (isLanguage(remembered)) redirect(res, pagePath(remembered, 'home') + search);
    else send(req, res, prepared.get('/index.html'));
    return '/';
  };

  /** Answers what it serves and says its route pattern; null for what it leaves to the API (other methods too). */
  return (req: IncomingMessage, res: ServerResponse): string | null => {
    const target = req.url ?? '/';
    if (req.method !== 'GET' && req.method !== 'HEAD') return null;
    if (!target.startsWith('/') || target === '/api' || target.startsWith('/api/')) return null;
    if (target === METRICS_PATH || target.startsWith(`${METRICS_PATH}?`)) return null;
    const queryAt = target.indexOf('?');
    return route(req, res, queryAt < 0 ? target : target.slice(0, queryAt), queryAt < 0 ? '' : target.slice(queryAt));
  };
}
