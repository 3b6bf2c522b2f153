// The development server (`npm run dev`): the pages rendered from the sources on each request with
// Vite's hot reload, and the API beside them on the same port. See docs/decisions/009.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { parse as parseCookies } from 'hono/utils/cookie';
import { createServer as createViteServer, type EnvironmentModuleNode, type ViteDevServer } from 'vite';
import type { renderDocument } from '#client/app/entry-prerender.tsx';
import { isLanguage, type Language } from '#common/languages.ts';
import { type PageId, pagePath, resolvePath } from '#common/routes.ts';
import { storageEntry } from '#common/storage.ts';
import { securityHeaders } from '#server/http/security-headers.ts';
import { type Env, readEnv } from '#server/platform/env.ts';
import { loadSiteConfig, ROOT, readTexts } from '#server/platform/site-config.ts';
import { pageModuleKey } from '#server/site/app-modules.ts';
import { servedPageFor } from '#server/site/site-handler.ts';
import { startApi } from '#server/start.ts';
import { rootPage } from './root-page.ts';

const ENTRY_CLIENT = '/src/client/app/entry-client.tsx';
const ENTRY_PRERENDER = '/src/client/app/entry-prerender.tsx';
const CRITICAL_SHEET = '/src/client/app/critical.css';
const ROOT_POSIX = ROOT.split(path.sep).join('/');
const LANGUAGE_COOKIE = storageEntry('languageCookie').name;
/** What only Vite serves: a request for these that it did not answer is for nothing there. */
const NOT_PAGES = ['/assets/', '/locales/', '/src/', '/node_modules/', '/@'];

/**
 * The production headers without the Content-Security-Policy: Vite's client and React's refresh
 * need inline and injected scripts that the build's hashes do not cover.
 */
function devSecurityHeaders(): Record<string, string> {
  const { 'Content-Security-Policy': _csp, ...headers } = securityHeaders();
  return headers;
}

/** A stylesheet as Vite compiles it now, by its address from the root (`/src/…`). */
const stylesheet = async (vite: ViteDevServer, url: string) =>
  ((await vite.ssrLoadModule(`${url}?inline`)) as { default: string }).default;

/**
 * The stylesheets a page's module imports, itself or through its imports, as the server's module
 * graph knows them once the page has been rendered: those the build inlines into that page beyond
 * the critical sheet (pageStylesheets in src/server/site/app-modules.ts). The graph does not say which
 * imports are on demand, so a sheet that the build leaves to a later import may be inlined here
 * too, which changes nothing on screen. Addresses from the root.
 */
function pageStylesheetUrls(vite: ViteDevServer, page: PageId): string[] {
  const graph = vite.environments.ssr.moduleGraph;
  const start = graph.getModuleById(path.posix.join(ROOT_POSIX, pageModuleKey(page)));
  const seen = new Set<EnvironmentModuleNode>();
  const sheets: string[] = [];
  const visit = (node: EnvironmentModuleNode) => {
    if (seen.has(node)) return;
    seen.add(node);
    if (node.file?.endsWith('.css')) {
      sheets.push(node.url);
      return;
    }
    for (const imported of node.importedModules) visit(imported);
  };
  if (start) visit(start);
  return sheets;
}

/**
 * The critical sheet and the page's own, inlined as the build inlines them, so the page paints
 * styled before the app loads. Each is marked with its module's id: Vite's client takes the element
 * over when the app imports that sheet, and replaces its text on every edit instead of adding a
 * second copy.
 */
async function devStylesheets(vite: ViteDevServer, page: PageId): Promise<string> {
  const urls = [CRITICAL_SHEET, ...pageStylesheetUrls(vite, page)];
  const styles = await Promise.all(
    urls.map(async (url) => `<style data-vite-dev-id="${ROOT_POSIX}${url}">${await stylesheet(vite, url)}</style>`),
  );
  return styles.join('\n');
}

/** One page as the build writes it, from the current sources and texts, with Vite's client added. */
async function renderPage(vite: ViteDevServer, url: string, pathname: string, language: Language, page: PageId) {
  const entry = (await vite.ssrLoadModule(ENTRY_PRERENDER)) as { renderDocument: typeof renderDocument };
  const site = await loadSiteConfig();
  const texts = (await readTexts(site.brand, [language]))[language] ?? {};
  const html = await entry.renderDocument({
    path: pathname,
    page,
    language,
    resources: { [language]: texts },
    site,
    // The entry module from the sources; the stylesheets are added below, where Vite can update them.
    assets: { styles: [], entry: ENTRY_CLIENT, preloads: [] },
  });
  const transformed = await vite.transformIndexHtml(url, html);
  const styles = await devStylesheets(vite, page);
  return transformed.replace('</head>', () => `${styles}\n</head>`);
}

/** The pages, by the routing rules of the production server (src/server/site/site-handler.ts). */
function pageHandler(vite: ViteDevServer, security: Record<string, string>) {
  const send = (req: IncomingMessage, res: ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { ...security, 'Content-Type': type, 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  const redirect = (res: ServerResponse, location: string) => {
    res.writeHead(302, { ...security, 'Cache-Control': 'no-cache', Location: location }).end();
  };

  return async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
    const search = queryAt < 0 ? '' : url.slice(queryAt);
    if (NOT_PAGES.some((prefix) => pathname.startsWith(prefix))) {
      return send(req, res, 404, 'text/plain; charset=utf-8', 'Not found');
    }
    const resolution = resolvePath(pathname, search);
    if (resolution.kind === 'redirect') return redirect(res, resolution.location);
    if (resolution.kind === 'page') {
      const page = servedPageFor(resolution.page, req.headers.cookie);
      const html = await renderPage(vite, url, pagePath(resolution.language, page), resolution.language, page);
      return send(req, res, 200, 'text/html; charset=utf-8', html);
    }
    const remembered = parseCookies(req.headers.cookie ?? '', LANGUAGE_COOKIE)[LANGUAGE_COOKIE];
    if (isLanguage(remembered)) return redirect(res, pagePath(remembered, 'home') + search);
    const root = await rootPage(await stylesheet(vite, CRITICAL_SHEET));
    return send(req, res, 200, 'text/html; charset=utf-8', root.html);
  };
}

export interface DevServer {
  url: string;
  close: () => Promise<void>;
}

/** Vite for the client's sources, its hot updates over a WebSocket on `server`. */
function viteServer(server: Server, env: Env): Promise<ViteDevServer> {
  return createViteServer({
    root: ROOT,
    appType: 'custom',
    server: {
      middlewareMode: true,
      ws: { server },
      watch: { ignored: [`${env.DATA_DIR}/**`, '**/dist/**', '**/test-results/**'] },
      // Compiled while the server starts, not on the first request.
      warmup: { clientFiles: [ENTRY_CLIENT.slice(1)], ssrFiles: [ENTRY_PRERENDER.slice(1)] },
    },
    // No index.html to scan: the entry and every page, so dependencies are prepared at start
    // rather than found on the first visit, which would reload the page.
    optimizeDeps: { entries: ['src/client/app/entry-client.tsx', 'src/client/pages/*/*Page.tsx'] },
  });
}

/** Starts the API, Vite and the pages on one HTTP server at env.HOST:env.PORT. */
export async function startDevServer(env: Env): Promise<DevServer> {
  const security = devSecurityHeaders();
  const server = createServer();
  // The database and Vite start side by side: each takes seconds.
  const [started, bundler] = await Promise.allSettled([startApi(env, security), viteServer(server, env)]);
  if (started.status === 'rejected' || bundler.status === 'rejected') {
    await Promise.allSettled([
      started.status === 'fulfilled' && started.value.stop(),
      bundler.status === 'fulfilled' && bundler.value.close(),
    ]);
    throw started.status === 'rejected' ? started.reason : (bundler as PromiseRejectedResult).reason;
  }
  const api = started.value;
  const vite = bundler.value;
  const apiListener = getRequestListener(api.app.fetch);
  const pages = pageHandler(vite, security);

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const target = req.url ?? '/';
    // As in production: the API, and every method but GET and HEAD, go to the Hono app.
    const isApi = !target.startsWith('/') || target === '/api' || target.startsWith('/api/');
    if (isApi || (req.method !== 'GET' && req.method !== 'HEAD')) {
      void apiListener(req, res);
      return;
    }
    // Vite's own files (modules, /@vite/client, public/) first, then the pages.
    vite.middlewares(req, res, () => {
      pages(req, res).catch((error: unknown) => {
        if (error instanceof Error) vite.ssrFixStacktrace(error);
        console.error(error);
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(error instanceof Error ? (error.stack ?? error.message) : String(error));
      });
    });
  });

  const close = async () => {
    await vite.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await api.stop();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(env.PORT, env.HOST, resolve);
    });
  } catch (error) {
    await Promise.allSettled([vite.close(), api.stop()]);
    throw error;
  }
  console.log(`Development server on http://localhost:${env.PORT} (${api.summary})`);
  return { url: `http://localhost:${env.PORT}`, close };
}

if (import.meta.main) {
  try {
    // Only this machine by default: the development server hands out the sources.
    const dev = await startDevServer(readEnv({ HOST: '127.0.0.1', ...process.env }));
    const stop = () => {
      dev.close().finally(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
