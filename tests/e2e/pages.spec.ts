import { expect, test } from '@playwright/test';
import { LANGUAGES } from '#common/languages.ts';
import { allPagePaths, bootNamespaces, pageNamespaces } from '#common/routes.ts';
import { expectAccessible, intlBeforeHydration, waitForHydration, watchConsole, watchIntl } from './helpers.ts';

const SITE_URL = 'http://localhost:3000';

// The account page needs a session and sends everyone else to sign in: accounts.spec.ts covers it.
for (const { path, language, page: pageId } of allPagePaths().filter(({ page }) => page !== 'account')) {
  test(`${path} is served, complete and accessible`, async ({ page }) => {
    const problems = watchConsole(page);
    const texts: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/locales/')) texts.push(request.url());
    });
    await watchIntl(page);

    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    // Hydration formats nothing: the page carries what its render formatted.
    expect(await intlBeforeHydration(page)).toEqual([]);

    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await expect(page.locator('h1')).toHaveCount(1);
    expect(await page.title()).not.toBe('');
    expect(await page.locator('meta[name="description"]').getAttribute('content')).not.toBe('');
    expect(await page.locator('body').innerText()).not.toMatch(/\{\{|\}\}/);

    const canonical = page.locator('link[rel="canonical"]');
    await expect(canonical).toHaveCount(1);
    await expect(canonical).toHaveAttribute('href', `${SITE_URL}${path}`);
    const rest = path.slice(3);
    for (const hreflang of [...LANGUAGES, 'x-default']) {
      const target = hreflang === 'x-default' ? 'en' : hreflang;
      await expect(page.locator(`link[rel="alternate"][hreflang="${hreflang}"]`)).toHaveAttribute(
        'href',
        `${SITE_URL}/${target}${rest}`,
      );
    }

    // The page brought its texts, and hydrating it fetches none, but those that its HTML shows and
    // leaves out of its boot data (after the brand, which every fetched file is filled with).
    const afterPaint = pageNamespaces(pageId).filter((ns) => !bootNamespaces(pageId).includes(ns));
    expect(texts.map((url) => new URL(url).pathname).sort()).toEqual(
      afterPaint.length > 0
        ? ['/locales/config.json', ...afterPaint.map((ns) => `/locales/${language}/${ns}.json`)].sort()
        : [],
    );
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
}

// The check every test above ends with finds what a visitor would meet: a button without a name and
// text too faint to read, added to a page that passes.
test('the accessibility check fails a page with a nameless button and faint text', async ({ page }) => {
  await page.goto('/en/about');
  await waitForHydration(page);
  await page.evaluate(() => {
    const heading = document.querySelector('h1');
    heading?.insertAdjacentHTML(
      'afterend',
      '<button type="button"><svg width="16" height="16"></svg></button><p>Faint</p>',
    );
    // Through the style object: the page's security policy refuses style attributes in markup.
    const faint = heading?.nextElementSibling?.nextElementSibling as HTMLElement;
    faint.style.color = '#bbb';
    faint.style.backgroundColor = '#fff';
  });
  const failure = await expectAccessible(page).then(
    () => '',
    (error: Error) => error.message,
  );
  expect(failure).toContain('button-name');
  expect(failure).toContain('color-contrast');
});

// V8 compiles a module marked so on a background thread while it streams in, instead of function
// by function on the main thread as hydration first calls them (decision 089).
test('every module a page runs before it hydrates carries the compile hint', async ({ page, request }) => {
  await page.goto('/en/login');
  const modules = ((await page.locator('#boot-data').getAttribute('data-modules')) ?? '').split(' ');
  // The entry, i18next, React DOM and the page's own module at least (decisions 086 and 090).
  expect(modules.length).toBeGreaterThanOrEqual(4);
  for (const path of modules) {
    const source = await (await request.get(path)).text();
    expect(source.split('\n', 1)[0], path).toBe('//# allFunctionsCalledOnLoad');
  }
});
