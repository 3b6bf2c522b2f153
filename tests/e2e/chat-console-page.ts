import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { build } from 'vite';

const BASE = '/__chat-console/';
const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Builds the operators' chat into a bare page once per test worker, for the console to be tested
 * before the console itself exists. The page is served by the browser itself (Playwright answers
 * its requests) under the chat site's own origin, so the API calls and cookies are the site's.
 */
export async function buildConsolePage(workerIndex: number): Promise<string> {
  const outDir = path.join(ROOT, 'test-results', `chat-console-page-${workerIndex}`);
  await build({
    // The site's own configuration (React, the text parts), with this page as the only input.
    configFile: path.join(ROOT, 'vite.config.ts'),
    root: ROOT,
    base: BASE,
    publicDir: false,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      manifest: true,
      target: 'es2022',
      rollupOptions: { input: path.join(ROOT, 'tests/e2e/chat-console-page/main.tsx') },
    },
  });
  return outDir;
}

/** Opens the bare console page at `site` in `page`, in `language`. */
export async function openConsolePage(page: Page, site: string, outDir: string, language = 'en') {
  const manifest = JSON.parse(await readFile(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string; css?: string[]; isEntry?: boolean }
  >;
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('No entry in the console page build');
  const html = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>Chats</title>
${(entry.css ?? []).map((css) => `<link rel="stylesheet" href="${BASE}${css}">`).join('\n')}
<script type="module" src="${BASE}${entry.file}"></script></head><body><div id="root"></div></body></html>`;
  await page.route(`${site}${BASE}**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === BASE) return route.fulfill({ contentType: 'text/html; charset=utf-8', body: html });
    const file = path.join(outDir, url.pathname.slice(BASE.length));
    const type = file.endsWith('.css') ? 'text/css' : 'text/javascript';
    return route.fulfill({ contentType: type, body: await readFile(file) });
  });
  await page.goto(`${site}${BASE}`);
}
