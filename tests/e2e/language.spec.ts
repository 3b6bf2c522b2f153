import { expect, test } from '@playwright/test';
import { expectAccessible, waitForHydration, watchConsole } from './helpers.ts';

test('the switcher changes language in place and remembers it', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto('/en/about?ref=nav#story');
  await waitForHydration(page);
  // Reading a page caches its language for the root page; only a choice sets the cookie.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('lang'))).toBe('en');
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain('lang');

  await page.locator('.language-switcher summary').click();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Italiano' }).first().click();

  await expect(page).toHaveURL(/\/it\/about\?ref=nav#story$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');
  await expect(page.locator('h1')).toHaveText('Chi siamo');
  await expect(page).toHaveTitle(/Your Company/);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', 'http://localhost:3000/it/about');
  await expect(page.locator('link[rel="alternate"][hreflang="th"]')).toHaveAttribute(
    'href',
    'http://localhost:3000/th/about?ref=nav#story',
  );

  expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('it');
  const cookie = (await page.context().cookies()).find((c) => c.name === 'lang');
  expect(cookie).toMatchObject({ value: 'it', path: '/', sameSite: 'Strict', secure: true });
  expect(cookie?.expires ?? 0).toBeGreaterThan(Date.now() / 1000 + 300 * 24 * 3600);
  expect(problems).toEqual([]);
});

test('the bare address opens in the language of the last page read, without a cookie', async ({ page }) => {
  await page.goto('/nl/about');
  await waitForHydration(page);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('lang'))).toBe('nl');
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain('lang');

  // The browser asks for English; the cached language wins, as the detection order says.
  await page.goto('/');
  await expect(page).toHaveURL(/\/nl$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
  await page.goto('/it/terms');
  await waitForHydration(page);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('lang'))).toBe('it');
  await page.goto('/');
  await expect(page).toHaveURL(/\/it$/);
});

test('the switcher works from the keyboard and closes with Escape', async ({ page }) => {
  await page.goto('/de');
  await waitForHydration(page);
  const summary = page.locator('.language-switcher summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.language-switcher')).toHaveAttribute('open', '');
  await page.keyboard.press('Escape');
  await expect(page.locator('.language-switcher')).not.toHaveAttribute('open', '');
  await expect(summary).toBeFocused();

  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'English' }).first()).toBeFocused();
});

test('the footer switches language too, adding nothing but the prefix', async ({ page }) => {
  await page.goto('/fr/terms');
  await waitForHydration(page);
  await page.locator('footer').getByRole('link', { name: 'ไทย' }).click();
  await expect(page).toHaveURL(/\/th\/terms$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'th');
});

test('navigating loads the next page and its texts once, moves focus and updates the head', async ({ page }) => {
  const problems = watchConsole(page);
  const texts: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/locales/')) texts.push(new URL(request.url()).pathname);
  });
  await page.goto('/nl');
  await waitForHydration(page);
  await page.locator('header').getByRole('link', { name: 'Contact' }).click();
  await expect(page).toHaveURL(/\/nl\/contact$/);
  await expect(page.locator('h1')).toHaveText('Neem contact met ons op');
  await expect(page.locator('main')).toBeFocused();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', 'http://localhost:3000/nl/contact');
  expect(await page.title()).toContain('Your Company');
  // The contact page's form shows error messages, so their texts come along.
  expect(texts.sort()).toEqual([
    '/locales/config.json',
    '/locales/nl/contact.json',
    '/locales/nl/errors.json',
    '/locales/nl/legal.json',
  ]);

  await page.goBack();
  await expect(page.locator('h1')).toHaveText(/Your Company/);
  await page.locator('header').getByRole('link', { name: 'Contact' }).click();
  await expect(page.locator('h1')).toHaveText('Neem contact met ons op');
  expect(texts).toHaveLength(4);
  expect(problems).toEqual([]);
});

test('links lead within the app; a click with a modifier, the skip link and a language switch keep their ways', async ({
  page,
  context,
}) => {
  const problems = watchConsole(page);
  await page.goto('/en/about');
  await waitForHydration(page);
  // A property of this document: a full page load would drop it.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  const sameDocument = () => page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument === true);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'page');

  await page.locator('footer').getByRole('link', { name: 'Privacy policy' }).click();
  await expect(page).toHaveURL(/\/en\/privacy-policy$/);
  await expect(page.locator('main')).toBeFocused();
  await expect(nav.getByRole('link', { name: 'About' })).not.toHaveAttribute('aria-current');
  expect(await sameDocument()).toBe(true);

  // A click with Control opens a new tab, as on any link: the app leaves it to the browser.
  const opened = context.waitForEvent('page');
  await nav.getByRole('link', { name: 'Contact' }).click({ modifiers: ['Control'] });
  await expect(await opened).toHaveURL(/\/en\/contact$/);
  await expect(page).toHaveURL(/\/en\/privacy-policy$/);

  // The same page in another language: focus stays on the link the visitor chose.
  const deutsch = page.locator('footer').getByRole('link', { name: 'Deutsch' });
  await deutsch.click();
  await expect(page).toHaveURL(/\/de\/privacy-policy$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(deutsch).toBeFocused();

  // The skip link jumps within the page.
  await page.locator('.skip-link').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/de\/privacy-policy#main$/);
  await expect(page.locator('main')).toBeFocused();
  expect(await sameDocument()).toBe(true);
  expect(problems).toEqual([]);
});

test('a failing translation file is retried, then the page shows', async ({ page }) => {
  let failures = 0;
  await page.route('**/locales/de/about.json', (route) => {
    if (failures < 2) {
      failures += 1;
      return route.fulfill({ status: 503, body: 'busy' });
    }
    return route.continue();
  });
  await page.goto('/de');
  await waitForHydration(page);
  await page.locator('header').getByRole('link', { name: 'Über uns' }).click();
  await expect(page).toHaveURL(/\/de\/about$/);
  await expect(page.locator('h1')).toHaveText('Über uns');
  expect(failures).toBe(2);
});

test('a missing translation file is not retried and the visitor can load the page afresh', async ({ page }) => {
  let requests = 0;
  await page.route('**/locales/fr/about.json', (route) => {
    requests += 1;
    return route.fulfill({ status: 404, body: 'missing' });
  });
  await page.goto('/fr');
  await waitForHydration(page);
  await page
    .locator('header')
    .getByRole('link', { name: /propos/ })
    .click();
  await expect(page.getByRole('alert')).toContainText('Impossible de charger cette page');
  expect(requests).toBe(1);
  await expectAccessible(page);
  await page.unroute('**/locales/fr/about.json');
  await page.getByRole('link', { name: 'Réessayer' }).click();
  await expect(page.locator('h1')).toHaveText('Qui sommes-nous ?');
});

test('a page whose long texts cannot be fetched stays as the server wrote it, with working links', async ({ page }) => {
  const problems = watchConsole(page);
  let requests = 0;
  await page.route('**/locales/it/privacy.json', (route) => {
    requests += 1;
    return route.fulfill({ status: 404, body: 'missing' });
  });
  await page.goto('/it/privacy-policy');
  await expect.poll(() => requests).toBe(1);
  await page.waitForLoadState('networkidle');
  // Not hydrated without its words: no keys in place of texts, no error page, no hydration mark.
  await expect(page.locator('h1')).toHaveText('Informativa sulla privacy');
  await expect(page.locator('main')).not.toContainText('sections.');
  await expect(page.locator('html')).not.toHaveAttribute('data-hydrated', 'true');
  await page.locator('footer').getByRole('link', { name: 'Condizioni d’uso' }).click();
  await expect(page).toHaveURL(/\/it\/terms$/);
  await waitForHydration(page);
  expect(problems.filter((problem) => !problem.includes('404'))).toEqual([]);
});
