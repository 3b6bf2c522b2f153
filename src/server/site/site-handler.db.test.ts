import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPagePaths, needsSession } from '#common/routes.ts';
import { createApp } from '#server/app.ts';
import { securityHeaders } from '#server/http/security-headers.ts';
import { openDatabase } from '#server/platform/db/database.ts';
import { targets } from '#tests/support/databases.ts';
import { startTestServer } from '#tests/support/test-server.ts';
import type { StaticFile } from './build-files.ts';

const encoder = new TextEncoder();
function file(urlPath: string, text: string, type: string): [string, StaticFile] {
  const body = encoder.encode(text);
  return [
    urlPath,
    {
      type,
      etag: `"${urlPath}"`,
      cacheControl: urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      // Kept compressed only, as the build's text files are.
      gzip: gzipSync(body),
      br: brotliCompressSync(body),
    },
  ];
}

/** The inline code the English home page carries, as loading the build found it. */
const HOME_INLINE = { scripts: ["'sha256-abc'"], styles: ["'sha256-def'"] };
// A built site in miniature: one HTML file per page, the root page, an asset and a locale file.
const files = new Map<string, StaticFile>([
  ...allPagePaths().map(({ path }) => file(`${path}/index.html`, `<html>${path}</html>`, 'text/html; charset=utf-8')),
  [
    '/en/index.html',
    { ...file('/en/index.html', '<html>/en</html>', 'text/html; charset=utf-8')[1], inline: HOME_INLINE },
  ],
  file('/index.html', '<html>root</html>', 'text/html; charset=utf-8'),
  file('/console/index.html', '<html>console</html>', 'text/html; charset=utf-8'),
  file('/assets/app-123.js', 'console.log(1)', 'text/javascript; charset=utf-8'),
  file('/locales/it/common.json', '{"a":"b"}', 'application/json; charset=utf-8'),
  // An image is built without compressed forms.
  ['/favicon.png', { type: 'image/png', etag: '"png"', cacheControl: 'no-cache', body: encoder.encode('png') }],
]);
// The site itself needs no database; PGlite stands in for the one the API uses.
const store = await (targets[0] as (typeof targets)[number]).createStore();
const db = await openDatabase(store.options);
afterAll(async () => {
  await db.close();
  await store.drop();
});
const security = securityHeaders();
const app = createApp({ db, secret: Buffer.alloc(32, 1), trustedProxies: 0, security });
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer(app, files, security, { drawShareImage });
});
afterAll(() => server.close());

// A share image a rendered page names, drawn on its first request; any other asset is missing.
const SHARE_IMAGE = '/assets/share/abc.png';
const drawn: string[] = [];
function drawShareImage(urlPath: string): Promise<void> | undefined {
  if (urlPath !== SHARE_IMAGE || files.has(urlPath)) return undefined;
  return new Promise((resolve) =>
    setTimeout(() => {
      drawn.push(urlPath);
      files.set(...file(urlPath, 'png', 'image/png'));
      resolve();
    }, 20),
  );
}

const get = (path: string, init: RequestInit = {}) => fetch(server.url + path, { redirect: 'manual', ...init });

describe('pages', () => {
  it.each(allPagePaths())('serves $path', async ({ path, page }) => {
    // A page that needs a session is served as itself to a request that shows one.
    const response = await get(path, needsSession(page) ? { headers: { Cookie: 'signed_in=1' } } : {});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(`<html>${path}</html>`);
  });

  it('serves the root page when no language was remembered', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('<html>root</html>');
  });

  it('sends the root to a remembered language, keeping the query', async () => {
    const response = await get('/?from=mail', { headers: { Cookie: 'lang=th' } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/th?from=mail');
  });

  it('ignores a remembered language that is not offered or looks like script', async () => {
    for (const cookie of ['lang=es', 'lang=%3Cscript%3E', 'lang="><svg onload=alert(1)>']) {
      const response = await get('/', { headers: { Cookie: cookie } });
      expect(response.status).toBe(200);
    }
  });
});

describe('a page that needs a session', () => {
  it.each(['', 'signed_in=', 'signed_in=0', 'lang=fr; theme=dark'])(
    'answers the account with the sign-in page when the cookies are "%s"',
    async (cookie) => {
      const response = await get('/fr/account', cookie ? { headers: { Cookie: cookie } } : {});
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('<html>/fr/login</html>');
      expect(response.headers.get('vary')).toBe('Accept-Encoding, Cookie');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      // Sign-in is indexed at its own address only.
      expect(response.headers.get('x-robots-tag')).toBe('noindex');
    },
  );

  it('answers the account itself when the signed-in cookie comes, among others', async () => {
    const response = await get('/th/account', { headers: { Cookie: 'lang=th; signed_in=1; x=y' } });
    expect(await response.text()).toBe('<html>/th/account</html>');
    expect(response.headers.get('vary')).toBe('Accept-Encoding, Cookie');
    expect(response.headers.get('x-robots-tag')).toBeNull();
  });

  it("revalidates by the file sent: the sign-in page's tag fits only while signed out", async () => {
    const signedOut = await get('/en/account');
    const etag = signedOut.headers.get('etag') ?? '';
    expect(etag).toBe('"/en/login/index.html"');
    expect((await get('/en/account', { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const signedIn = await get('/en/account', { headers: { 'If-None-Match': etag, Cookie: 'signed_in=1' } });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).toBe('<html>/en/account</html>');
  });

  it('leaves the other pages alone', async () => {
    const response = await get('/en/login');
    expect(await response.text()).toBe('<html>/en/login</html>');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(response.headers.get('x-robots-tag')).toBeNull();
  });
});

describe('the console', () => {
  it.each(['/console', '/console/inbox', '/console/messages/42?x=1'])('answers %s with its one page', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('<html>console</html>');
    expect(response.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  });

  it('leaves the public pages without an opener policy, which would cost their first paint', async () => {
    const response = await get('/en/login');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('cross-origin-opener-policy')).toBeNull();
  });
});

describe('redirects', () => {
  it.each([
    ['/about', '/en/about'],
    ['/terms?x=1', '/en/terms?x=1'],
    ['/fr/', '/fr'],
    ['/foo/bar', '/en'],
    ['/it/unknown', '/en'],
    ['/..%2f..%2fetc/passwd', '/en'],
    ['/%2e%2e/%2e%2e/etc/passwd', '/en'],
    ['/<script>alert(1)</script>', '/en'],
    ['/about?q=<script>', '/en/about?q=%3Cscript%3E'],
    [`/${'x'.repeat(10_000)}`, '/en'],
    ['//evil.example/path', '/en'],
    ['/%E0%A4%A', '/en'],
    ['/en/%2e%2e/%2e%2e/etc/passwd', '/en'],
  ])('%s goes to %s', async (path, location) => {
    const response = await get(path);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(location);
  });

  it('serves a page whatever its query holds, without reflecting it', async () => {
    const response = await get('/en?lng=%3Cscript%3Ealert(1)%3C/script%3E');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('<html>/en</html>');
  });

  it('never serves a page file by its file name', async () => {
    const response = await get('/en/about/index.html');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/en');
  });
});

describe('static files', () => {
  it('caches hashed assets for a year and picks the best encoding', async () => {
    const br = await get('/assets/app-123.js', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(await br.text()).toBe('console.log(1)');

    const gzip = await get('/assets/app-123.js', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');

    const refused = await get('/assets/app-123.js', { headers: { 'Accept-Encoding': 'br;q=0, gzip;q=0' } });
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(await refused.text()).toBe('console.log(1)');
  });

  it('does not say a file varies with the encoding when it has no compressed form, as nginx does not', async () => {
    const response = await get('/favicon.png', { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('vary')).toBeNull();
  });

  it('answers 304 to a matching ETag', async () => {
    const response = await get('/locales/it/common.json', {
      headers: { 'If-None-Match': '"/locales/it/common.json"' },
    });
    expect(response.status).toBe(304);
  });

  it('serves a share image a page names once it is drawn on the first request, then as a file', async () => {
    const first = await get(SHARE_IMAGE);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await first.text()).toBe('png');
    expect((await get(SHARE_IMAGE)).status).toBe(200);
    expect(drawn).toEqual([SHARE_IMAGE]);
    expect((await get('/assets/share/other.png')).status).toBe(404);
  });

  it('answers 404 for a missing asset or locale, not a redirect', async () => {
    expect((await get('/assets/missing.js')).status).toBe(404);
    expect((await get('/locales/xx/common.json')).status).toBe(404);
    expect((await get('/locales/../package.json')).status).not.toBe(200);
  });
});

describe('headers and methods', () => {
  it('sets the security headers, with a policy that allows the page’s own inline code only', async () => {
    const response = await get('/en');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' 'sha256-abc';");
    expect(csp).toContain("style-src 'self' 'sha256-def';");
    const other = (await get('/en/about')).headers.get('content-security-policy') ?? '';
    expect(other).toContain("script-src 'self';");
    expect(other).toContain("style-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('strict-transport-security')).toContain('max-age=');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('gives a built file other than a page a short policy without the pages’ hashes', async () => {
    const page = (await get('/en')).headers.get('content-security-policy') ?? '';
    const script = await get('/assets/app-123.js');
    expect(script.status).toBe(200);
    const policy = script.headers.get('content-security-policy') ?? '';
    expect(policy).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(policy.length).toBeLessThan(page.length / 4);
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await get('/en/about', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('refuses other methods on pages', async () => {
    const response = await get('/en', { method: 'POST', body: 'x' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});
