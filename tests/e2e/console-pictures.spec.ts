import { expect, test } from '@playwright/test';
import { PICTURES_API } from '#common/site-pictures.ts';
import { testPhoto } from '#tests/support/pictures.ts';
import { countGets, expectAccessible, layoutShift, waitForHydration, watchConsole } from './helpers.ts';
import { BRAND_DATA_DIR, BRAND_PORT, BRAND_SITE } from './settings.ts';
import { newStaff, signInToConsole, consoleTexts as t } from './staff.ts';

// A picture renders every page again: on the site whose brand and pictures the tests change.
test.use({ baseURL: BRAND_SITE });

const toasts = (page: import('@playwright/test').Page) => page.locator('.toasts__list');
/** The tag of the element the page's largest contentful paint was of. */
const largestElement = (page: import('@playwright/test').Page) =>
  page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries() as (PerformanceEntry & { element?: Element | null })[];
          resolve(entries.at(-1)?.element?.tagName ?? '');
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
/** Each change is answered once this instance serves every page rendered again: seconds on a busy host. */
const RENDERED = { timeout: 60_000 };

test('an editor sets the home page’s picture; the page serves it in modern formats, keeping its room, then without it', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const editor = await newStaff(context, baseURL ?? '', 'editor', 'Eddie Editor', {
    server: { port: BRAND_PORT, dataDir: BRAND_DATA_DIR },
  });
  const listed = countGets(page, PICTURES_API.pictures);
  await signInToConsole(page, editor, '/console/pictures');
  await expect(page.locator('h1')).toHaveText(t.pictures.title);
  await expectAccessible(page);
  // The pictures are asked for once, not again at every render.
  expect(listed()).toBe(1);

  const photo = await testPhoto({ width: 1200, height: 800 });
  await page.locator('#picture-home-file').setInputFiles({
    name: 'field.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from(photo),
  });
  await expect(toasts(page)).toContainText(t.pictures.uploaded.replace('{{page}}', t.pictures.slots.home), RENDERED);
  await page
    .getByRole('textbox', { name: t.pictures.altIn.replace('{{language}}', 'English') })
    .first()
    .fill('A field at dawn');
  await page.getByRole('button', { name: t.pictures.altSave }).first().click();
  await expect(toasts(page)).toContainText(t.pictures.altSaved, RENDERED);
  await expectAccessible(page);

  const home = await context.newPage();
  await home.goto('/en');
  await waitForHydration(home);
  const picture = home.locator('.hero picture');
  await expect(picture.locator('source')).toHaveCount(2);
  await expect(picture.locator('source').first()).toHaveAttribute('type', 'image/avif');
  await expect(picture.locator('source').first()).toHaveAttribute(
    'srcset',
    /^\/assets\/pictures\/home-[\w-]+-480\.avif 480w, \S+-960\.avif 960w, \S+-1200\.avif 1200w$/,
  );
  const img = picture.locator('img');
  await expect(img).toHaveAttribute('width', '960');
  await expect(img).toHaveAttribute('height', '640');
  await expect(img).toHaveAttribute('alt', 'A field at dawn');
  await expect(img).toHaveAttribute('fetchpriority', 'high');
  // Chromium takes the AVIF; the box had its proportions before it arrived.
  await expect
    .poll(() => img.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
    .toBeGreaterThan(0);
  expect(await img.evaluate((element: HTMLImageElement) => element.currentSrc)).toMatch(/\.avif$/);
  const box = await img.boundingBox();
  expect(Math.abs((box?.height ?? 0) - ((box?.width ?? 0) * 640) / 960)).toBeLessThan(1.5);
  expect(await layoutShift(home)).toBe(0);
  // The hero picture is the page's largest element now.
  expect(await largestElement(home)).toBe('IMG');
  const served = await home.request.get(await img.evaluate((element: HTMLImageElement) => element.currentSrc));
  expect(served.headers()['content-type']).toBe('image/avif');
  expect(served.headers()['cache-control']).toContain('immutable');
  await expectAccessible(home);

  // A visitor who starts on another page gets no picture with it; the app asks for it on the way home.
  const visitor = await context.newPage();
  const problems = watchConsole(visitor);
  const contact = await visitor.goto('/en/contact');
  expect(await contact?.text()).not.toContain('/assets/pictures/');
  await waitForHydration(visitor);
  const asked = visitor.waitForResponse((response) => response.url().endsWith(PICTURES_API.shown));
  await visitor.locator('a.brand').click();
  expect((await asked).status()).toBe(200);
  await expect(visitor).toHaveURL(/\/en$/);
  await expect(visitor.locator('.hero picture img')).toHaveAttribute('alt', 'A field at dawn');
  await expect(visitor.locator('.hero picture source').first()).toHaveAttribute(
    'srcset',
    (await picture.locator('source').first().getAttribute('srcset')) ?? '',
  );
  expect(problems).toEqual([]);

  // Taken off again: the page shows none (and the next tests see the site as it was).
  await page.getByRole('button', { name: t.pictures.remove.replace('{{page}}', t.pictures.slots.home) }).click();
  await page.getByRole('button', { name: t.pictures.removeConfirm }).click();
  await expect(toasts(page)).toContainText(t.pictures.removed.replace('{{page}}', t.pictures.slots.home), RENDERED);
  await home.reload();
  await waitForHydration(home);
  await expect(home.locator('.hero h1')).toBeVisible();
  await expect(home.locator('picture')).toHaveCount(0);
  expect(await largestElement(home)).not.toBe('IMG');
});
