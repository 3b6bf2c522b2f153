import { expect, test } from '@playwright/test';
import { isIndexed, sitemapPaths } from '#common/head.ts';
import { LANGUAGES } from '#common/languages.ts';
import { allPagePaths, needsSession, pagePath } from '#common/routes.ts';
import { storageEntry } from '#common/storage.ts';
import { waitForHydration, watchConsole } from './helpers.ts';

const SITE_URL = 'http://localhost:3000';

test('the sitemap lists every indexed page with its alternates, and no other', async ({ request }) => {
  const response = await request.get('/sitemap.xml');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/xml');
  const xml = await response.text();
  const locs = [...xml.matchAll(/<loc>(.*?)<\/loc>/g)].map((m) => m[1]);
  expect(locs.sort()).toEqual(
    sitemapPaths()
      .map(({ path }) => `${SITE_URL}${path}`)
      .sort(),
  );
  expect(locs).not.toContain(`${SITE_URL}/en/validation`);
  expect(xml.match(/<xhtml:link rel="alternate"/g)).toHaveLength(sitemapPaths().length * (LANGUAGES.length + 1));
  expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="th" href="${SITE_URL}/th/cookie-policy"/>`);
});

test('a page left out of the sitemap carries noindex, and every other page none', async ({ request }) => {
  for (const { path, page } of allPagePaths()) {
    // A page that needs a session is itself only with the signed-in cookie (decision 092).
    const headers = needsSession(page) ? { Cookie: `${storageEntry('signedIn').name}=1` } : undefined;
    const html = await (await request.get(path, { headers })).text();
    expect(html.includes('<meta name="robots" content="noindex">'), path).toBe(!isIndexed(page));
  }
});

test('the sign-in page that stands in for a page needing a session is not indexed there', async ({ request }) => {
  const answer = await request.get(pagePath('nl', 'account'));
  expect(await answer.text()).not.toContain('<meta name="robots"');
  expect(answer.headers()['x-robots-tag']).toBe('noindex');
  expect((await request.get(pagePath('nl', 'login'))).headers()['x-robots-tag']).toBeUndefined();
});

test('noindex follows the page when the visitor moves between pages in the browser', async ({ page }) => {
  const robots = page.locator('head meta[name="robots"]');
  await page.goto(pagePath('fr', 'login'));
  await waitForHydration(page);
  await expect(robots).toHaveCount(0);
  await page
    .locator(`a[href="${pagePath('fr', 'forgotPassword')}"]`)
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`${pagePath('fr', 'forgotPassword')}$`));
  await expect(robots).toHaveAttribute('content', 'noindex');
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`${pagePath('fr', 'login')}$`));
  await expect(robots).toHaveCount(0);
});

test('robots.txt allows crawling and names the sitemap', async ({ request }) => {
  const text = await (await request.get('/robots.txt')).text();
  expect(text).toContain('Allow: /');
  expect(text).toContain(`Sitemap: ${SITE_URL}/sitemap.xml`);
});

test('hydration leaves the prerendered page exactly as it was', async ({ page, request, baseURL }) => {
  // With the consent question answered, nothing is meant to appear after hydration.
  await page.context().addCookies([{ name: 'consent', value: 'denied', url: baseURL as string }]);
  const html = await (await request.get('/th/about')).text();
  await page.goto('/th/about');
  const prerendered = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'text/html');
    return doc.getElementById('root')?.innerHTML ?? '';
  }, html);
  await waitForHydration(page);
  // The chat launcher joins after the first paint by design (it may or may not be there yet);
  // everything else must be exactly what was prerendered.
  const hydrated = await page.evaluate(() => {
    const root = document.getElementById('root')?.cloneNode(true) as HTMLElement | undefined;
    root?.querySelector('.chat-widget')?.remove();
    return root?.innerHTML;
  });
  expect(hydrated).toBe(prerendered);
});

test('the sharing tags and JSON-LD break no rule of the page’s security policy, and the share image is served', async ({
  page,
  request,
}) => {
  await page.addInitScript(() => {
    const found: string[] = [];
    Object.assign(window, { cspViolations: found });
    document.addEventListener('securitypolicyviolation', (event) =>
      found.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const problems = watchConsole(page);
  const answer = await page.goto('/th/about');
  // The policy is enforced, with hashes for the inline scripts it runs: the JSON-LD has none.
  expect(answer?.headers()['content-security-policy']).toMatch(/script-src [^;]*'sha256-/);
  await waitForHydration(page);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '');
  expect(jsonLd['@type']).toBe('BreadcrumbList');
  await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'th_TH');
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  expect(problems).toEqual([]);

  const image = (await page.locator('meta[property="og:image"]').getAttribute('content')) ?? '';
  expect(image.startsWith(`${SITE_URL}/assets/share/`)).toBe(true);
  const picture = await request.get(new URL(image).pathname);
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toBe('image/png');
  expect(picture.headers()['cache-control']).toContain('immutable');
  const png = await picture.body();
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([
    Number(await page.locator('meta[property="og:image:width"]').getAttribute('content')),
    Number(await page.locator('meta[property="og:image:height"]').getAttribute('content')),
  ]);
});
