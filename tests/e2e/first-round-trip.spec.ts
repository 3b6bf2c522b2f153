// Every page's HTML must arrive in the first round trip of a new connection: ten TCP segments of
// 1,460 bytes with the answer's headers (decision 085). The build's brotli file of each page plus a
// fixed allowance for the headers must fit; the allowance itself is held to what the server really
// sends with a page, so that a header or an inline sheet's hash added later shows here too.
import { statSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Language } from '#common/languages.ts';
import { allPagePaths, needsSession, type PageId, pagePath, signedOutPage } from '#common/routes.ts';
import { storageEntry } from '#common/storage.ts';
import { BUDGETS } from '#scripts/bench/bench-report.ts';
import { PORT } from './settings.ts';

/**
 * The header bytes allowed for a page's answer. Measured on the Node server (HTTP/1.1, as Lighthouse
 * counts them) on 2026-11-26: 1,456 to 1,457 bytes for most pages, 1,470 for the account with a session and
 * 1,494 for the sign-in page answering the account's address without one (Vary: Cookie and
 * X-Robots-Tag). 869 of them are the Content-Security-Policy, which grows by some 55 bytes
 * with each inline sheet's hash: the allowance leaves room for one more.
 */
const HEADER_ALLOWANCE = 1_550;

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

test('every prerendered page fits the first round trip with the header allowance', () => {
  const over: string[] = [];
  for (const { language, page, path: pathname } of allPagePaths()) {
    const bytes = brotliBytes(language, page) + HEADER_ALLOWANCE;
    if (bytes > BUDGETS.htmlBytes) over.push(`${pathname}: ${bytes}`);
  }
  expect(over, `over ${BUDGETS.htmlBytes} bytes with ${HEADER_ALLOWANCE} of headers`).toEqual([]);
});

test("the server's page answers carry no more header bytes than the allowance, nor far fewer", async () => {
  let most = 0;
  for (const { language, page, path: pathname } of allPagePaths()) {
    // A page that needs a session answers with itself with the cookie, with sign-in without it.
    const variants = needsSession(page) ? [SIGNED_IN, undefined] : [undefined];
    for (const cookie of variants) {
      const served = cookie ? page : signedOutPage(page);
      const { status, headerBytes, bodyBytes } = await answer(pathname, cookie);
      expect(status, pathname).toBe(200);
      // The body is the build's brotli file, which the first test weighs.
      expect(bodyBytes, pathname).toBe(brotliBytes(language, served));
      expect(headerBytes, `${pathname}${cookie ? ' signed in' : ''}`).toBeLessThanOrEqual(HEADER_ALLOWANCE);
      most = Math.max(most, headerBytes);
    }
  }
  // An allowance far above the real headers would let a page through that does not fit.
  expect(HEADER_ALLOWANCE - most).toBeLessThan(150);
});
