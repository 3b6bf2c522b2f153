// Every page's HTML must arrive in the first round trip of a new connection: ten TCP segments of
// 1,460 bytes with the answer's headers (decision 085). Each page is asked of the server as a
// browser asks for it, and its headers (its own security policy among them, decision 250) and its
// body, the build's brotli file, must fit together.
import { statSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Language } from '#common/languages.ts';
import { allPagePaths, needsSession, type PageId, pagePath, signedOutPage } from '#common/routes.ts';
import { storageEntry } from '#common/storage.ts';
import { BUDGETS } from '#scripts/bench/bench-report.ts';
import { PORT } from './settings.ts';

const CLIENT_DIR = path.join(import.meta.dirname, '../../dist/client');
const SIGNED_IN = `${storageEntry('signedIn').name}=1`;

/** The size of the brotli file the server sends for a page. */
const brotliBytes = (language: Language, page: PageId) =>
  statSync(path.join(CLIENT_DIR, `${pagePath(language, page).slice(1)}/index.html.br`)).size;

/** A page's answer as the browser gets it on a new connection: its header bytes and its body's. */
function answer(
  pathname: string,
  cookie?: string,
): Promise<{ status: number; headerBytes: number; bodyBytes: number }> {
  return new Promise((resolve, reject) => {
    const request = get(
      {
        host: '127.0.0.1',
        port: PORT,
        path: pathname,
        headers: { 'Accept-Encoding': 'br, gzip', ...(cookie ? { Cookie: cookie } : {}) },
      },
      (response) => {
        let bodyBytes = 0;
        response.on('data', (chunk: Buffer) => {
          bodyBytes += chunk.length;
        });
        response.on('end', () => {
          const lines = [`HTTP/${response.httpVersion} ${response.statusCode} ${response.statusMessage}`];
          for (let i = 0; i < response.rawHeaders.length; i += 2)
            lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
          const headerBytes = Buffer.byteLength(`${lines.join('\r\n')}\r\n\r\n`);
          resolve({ status: response.statusCode ?? 0, headerBytes, bodyBytes });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

test('every page fits the first round trip with its headers, signed in or not', async () => {
  const over: string[] = [];
  let most = { pathname: '', bytes: 0 };
  for (const { language, page, path: pathname } of allPagePaths()) {
    // A page that needs a session answers with itself with the cookie, with sign-in without it.
    const variants = needsSession(page) ? [SIGNED_IN, undefined] : [undefined];
    for (const cookie of variants) {
      const served = cookie ? page : signedOutPage(page);
      const { status, headerBytes, bodyBytes } = await answer(pathname, cookie);
      expect(status, pathname).toBe(200);
      // The body is the build's brotli file of the page served.
      expect(bodyBytes, pathname).toBe(brotliBytes(language, served));
      const bytes = headerBytes + bodyBytes;
      const name = `${pathname}${cookie ? ' signed in' : ''}`;
      if (bytes > BUDGETS.htmlBytes) over.push(`${name}: ${bytes} (${headerBytes} of headers)`);
      if (bytes > most.bytes) most = { pathname: name, bytes };
    }
  }
  expect(over, `over ${BUDGETS.htmlBytes} bytes`).toEqual([]);
  test.info().annotations.push({ type: 'largest', description: `${most.pathname}: ${most.bytes} bytes` });
});
