import { expect, test } from '@playwright/test';

test.describe('the root page', () => {
  test('goes to the first supported browser language, replacing itself in history', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'fr-CA' });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page).toHaveURL(/\/fr$/);
    // The new tab's blank page and /fr: the root page replaced itself rather than adding an entry.
    expect(await page.evaluate(() => history.length)).toBe(2);
    await context.close();
  });

  test('falls back to English for an unsupported browser language', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'es-ES' });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page).toHaveURL(/\/en$/);
    await context.close();
  });

  test('prefers the stored choice, and keeps query and hash', async ({ page }) => {
    await page.goto('/en');
    // The page caches its own language once the app runs; the stored value is written after that.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('lang'))).toBe('en');
    await page.evaluate(() => localStorage.setItem('lang', 'th'));
    await page.goto('/?utm=x#top');
    await expect(page).toHaveURL(/\/th\?utm=x#top$/);
  });

  test('ignores a stored value that looks like script', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto('/en');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('lang'))).toBe('en');
    await page.evaluate(() => localStorage.setItem('lang', '<script>alert(1)</script>'));
    let dialog = false;
    page.on('dialog', () => {
      dialog = true;
    });
    await page.goto('/');
    await expect(page).toHaveURL(/\/de$/);
    expect(dialog).toBe(false);
    await context.close();
  });

  test('is answered by the server when the language cookie remembers a choice', async ({ request }) => {
    const response = await request.get('/', { headers: { Cookie: 'lang=nl' }, maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toBe('/nl');
  });

  test('offers links when JavaScript is off', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Italiano' })).toHaveAttribute('href', '/it');
    await context.close();
  });
});

test.describe('server redirects', () => {
  const cases: [string, string][] = [
    ['/about', '/en/about'],
    ['/privacy-policy?x=1', '/en/privacy-policy?x=1'],
    ['/xx/about', '/en'],
    ['/it/nothing-here', '/en'],
    ['/..%2f..%2fetc/passwd', '/en'],
    ['/%3Cscript%3E', '/en'],
  ];
  for (const [from, to] of cases) {
    test(`${from} goes to ${to}`, async ({ request }) => {
      const response = await request.get(from, { maxRedirects: 0 });
      expect(response.status()).toBe(302);
      expect(response.headers().location).toBe(to);
    });
  }

  test('a browser following them lands on the page', async ({ page }) => {
    await page.goto('/contact');
    await expect(page).toHaveURL(/\/en\/contact$/);
    await expect(page.locator('h1')).toHaveText('Contact us');
  });
});
