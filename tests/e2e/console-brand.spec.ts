import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { BRAND_API } from '#common/site-brand.ts';
import { unexpected } from './accounts.ts';
import { expectAccessible, watchConsole } from './helpers.ts';
import { BRAND_DATA_DIR, BRAND_PORT, BRAND_SITE as SITE } from './settings.ts';
import { newStaff, signInToConsole, consoleTexts as t } from './staff.ts';

const texts = (language: string, namespace: string) =>
  JSON.parse(readFileSync(`public/locales/${language}/${namespace}.json`, 'utf8'));
const errors = texts('en', 'errors') as typeof import('#locales/en/errors.json');
const brand = t.brand;

/** A plain drawing, as a designer exports a logo; and the same with a script in it. */
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48" viewBox="0 0 160 48">
  <rect width="48" height="48" rx="8" fill="#0b6e4f"/>
  <text x="58" y="32" font-family="sans-serif" font-size="22" fill="#0b6e4f">Rossi</text>
</svg>`;
const SCRIPTED = LOGO.replace('<rect', '<script>alert(document.cookie)</script><rect');

/** A save answers once this instance serves the whole site rendered again: seconds on a busy machine. */
const RENDERED = { timeout: 60_000 };
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

test.use({ baseURL: SITE });
// Two full renders of the site per change on a busy two-core machine, and a staff member made first.
test.describe.configure({ timeout: 150_000 });

/** The brand as config.json gives it, whatever an earlier run on this site left (the calls the page makes). */
async function startFromConfig(page: Page) {
  const headers = { Origin: SITE };
  for (const [method, path, data] of [
    ['PUT', BRAND_API.brand, { brand: null, appearance: null, company: null, logoAlt: {} }],
    ['DELETE', BRAND_API.logo, {}],
  ] as const) {
    const response = await page.request.fetch(`${SITE}${path}`, { method, data, headers });
    expect(response.ok(), `${method} ${path} answered ${response.status()}`).toBe(true);
  }
}

const pngBytes = async (page: Page, url: string) => {
  const response = await page.request.get(url);
  expect(response.status(), url).toBe(200);
  expect(response.headers()['content-type']).toBe('image/png');
  const body = await response.body();
  expect([...body.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  return body;
};

test('an admin sets the brand colour and the logo in the console, and the site shows them', async ({
  page,
  context,
  browser,
}) => {
  const admin = await newStaff(context, SITE, 'admin', 'Ada Admin', {
    server: { port: BRAND_PORT, dataDir: BRAND_DATA_DIR },
  });
  const problems = watchConsole(page);
  await signInToConsole(page, admin, '/console/brand');
  await startFromConfig(page);
  const faviconBefore = await pngBytes(page, `${SITE}/favicon.png`);
  await page.reload();
  await expect(page.getByRole('heading', { name: brand.title, level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: brand.nav })).toHaveAttribute('aria-current', 'page');
  // Out of the box the legal facts are missing, and the page says which.
  await expect(page.getByLabel(brand.legal.fields.company_legalName)).toHaveAttribute('aria-required', 'true');
  await expectAccessible(page);

  // A colour links would not read in is refused before saving, with the reason and the contrast.
  const colour = page.getByRole('textbox', { name: brand.colour.label });
  await colour.fill('#f5c518');
  const reason = page.locator('#brand-appearance-accent-error');
  await expect(reason).toHaveText(errors.BRAND_COLOUR_CONTRAST);
  await expect(colour).toHaveAttribute('aria-describedby', /brand-appearance-accent-error/);
  await expect(colour).toHaveAttribute('aria-invalid', 'true');
  const ratio = page.locator('.brand-colour__ratio');
  const withRatio = (text: string, value: string) => text.replace('{{ratio}}', value).replace('{{minimum}}', '4.5');
  await expect(ratio).toHaveText(withRatio(brand.colour.ratioLow, '1.5'));
  await expect(page.locator('.brand-preview__link')).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole('button', { name: brand.colour.save }).click();
  await expect(colour).toBeFocused();
  await expect(reason).toHaveText(errors.BRAND_COLOUR_CONTRAST);

  // A dark green reads: the preview shows a link and a button in the palette, and it is saved.
  await colour.fill('#0b6e4f');
  await expect(reason).toHaveCount(0);
  await expect(ratio).toHaveText(withRatio(brand.colour.ratioGood, '5.8'));
  await expect(page.locator('.brand-preview__link').first()).toHaveCSS('color', 'rgb(11, 110, 79)');
  await expectAccessible(page);
  const status = page.locator('.brand-page__status');
  await expect(status).toHaveAttribute('aria-live', 'polite');
  await page.getByRole('button', { name: brand.colour.save }).click();
  await expect(status).toHaveText(brand.saved.replace('{{section}}', brand.colour.title), RENDERED);
  await expectAccessible(page);

  // Legal facts: the server refuses an address that is none, and the message goes under its field.
  const legalName = page.getByLabel(brand.legal.fields.company_legalName);
  const email = page.getByRole('textbox', { name: brand.legal.fields.company_email });
  await legalName.fill('Panificio Rossi S.r.l.');
  await email.fill('not an address');
  await page.getByRole('button', { name: brand.legal.save }).click();
  await expect(page.locator('#brand-company-email-error')).toHaveText(brand.fieldInvalid, RENDERED);
  await expect(email).toBeFocused();
  await expect(email).toHaveAttribute('aria-describedby', /brand-company-email-error/);
  await expectAccessible(page);
  await email.fill('ciao@rossi.example');
  await page.getByRole('button', { name: brand.legal.save }).click();
  await expect(status).toHaveText(brand.saved.replace('{{section}}', brand.legal.title), RENDERED);
  await expect(legalName).not.toHaveAttribute('aria-required', 'true');
  await expect(page.locator('#brand-company-email-error')).toHaveCount(0);

  // The logo, previewed before it is sent, with its English text.
  const file = page.getByLabel(brand.logo.file);
  await file.setInputFiles({ name: 'rossi.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(LOGO) });
  await expect(page.getByRole('img', { name: brand.logo.previewChosen })).toBeVisible();
  await page.getByLabel(brand.logo.alt.replace('{{language}}', 'English')).fill('Panificio Rossi');
  await expectAccessible(page);
  await page.getByRole('button', { name: brand.logo.upload }).click();
  await expect(status).toHaveText(brand.saved.replace('{{section}}', brand.logo.title), RENDERED);
  await expect(page.getByRole('img', { name: brand.logo.previewCurrent })).toHaveAttribute(
    'src',
    /^\/assets\/brand\/logo-[\w-]+\.svg$/,
  );
  await expectAccessible(page);

  // A visitor who never saw the site gets it in the brand: the logo, the palette, the favicon, the share image.
  const visitor = await browser.newContext({ baseURL: SITE });
  const home = await visitor.newPage();
  await home.goto('/en');
  await expect(home.locator('img.brand__logo')).toHaveAttribute('alt', 'Panificio Rossi');
  await expect(home.locator('footer')).toContainText('Panificio Rossi S.r.l.');
  await expect(home.locator('img.brand__logo')).toHaveJSProperty('complete', true);
  expect(
    await home.locator('img.brand__logo').evaluate((image: HTMLImageElement) => image.naturalWidth),
  ).toBeGreaterThan(0);
  const accent = await home.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--accent').trim(),
  );
  expect(accent).toBe('#0b6e4f');
  const favicon = await pngBytes(home, `${SITE}/favicon.png`);
  expect(favicon.equals(faviconBefore)).toBe(false);
  const shareImage = (await home.locator('meta[property="og:image"]').getAttribute('content')) ?? '';
  expect(shareImage).toMatch(/^https?:\/\//);
  // The logo is drawn on its plate: its green square where the logo sits, white around it (the
  // card itself is the same green).
  const card = sharp(await pngBytes(home, `${SITE}${new URL(shareImage).pathname}`)).removeAlpha();
  const { data, info } = await card.raw().toBuffer({ resolveWithObject: true });
  const rgb = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
  expect(rgb(100, 100)).toEqual([0x0b, 0x6e, 0x4f]);
  expect(rgb(72, 60)).toEqual([0xff, 0xff, 0xff]);
  await visitor.close();

  // An SVG with a script is refused, in the console's language, next to the file field.
  const german = texts('de', 'console').brand;
  await page.getByRole('combobox', { name: t.user.language }).selectOption('de');
  await expect(page.getByRole('heading', { name: german.title, level: 1 })).toBeVisible();
  const germanFile = page.getByLabel(german.logo.file);
  await germanFile.setInputFiles({ name: 'rossi.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(SCRIPTED) });
  await page.getByRole('button', { name: german.logo.upload }).click();
  await expect(page.locator('#brand-logo-error')).toHaveText(texts('de', 'errors').LOGO_UNSAFE, RENDERED);
  await expect(germanFile).toBeFocused();
  await expect(germanFile).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  // The logo the site shows is still the plain one.
  const served = await page.request.get(`${SITE}/en`);
  expect(await served.text()).toContain('alt="Panificio Rossi"');

  await page.getByRole('combobox', { name: texts('de', 'console').user.language }).selectOption('en');
  await startFromConfig(page);
  // The refusals (signed out at first, the unsafe logo) are the only failed loads.
  expect(unexpected(problems)).toEqual([]);
});
