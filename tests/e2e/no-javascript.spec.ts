import { expect, test } from '@playwright/test';

test.use({ javaScriptEnabled: false });

test('a page reads and navigates with JavaScript off', async ({ page }) => {
  await page.goto('/it');
  await expect(page.locator('h1')).toHaveText('Ti diamo il benvenuto su Your Company');
  await expect(page.locator('footer')).toContainText('Informativa sulla privacy');

  await page.locator('header').getByRole('link', { name: 'Chi siamo' }).click();
  await expect(page).toHaveURL(/\/it\/about$/);
  await expect(page.locator('h1')).toHaveText('Chi siamo');
});

test('the language switcher works with JavaScript off', async ({ page }) => {
  await page.goto('/en/cookie-policy');
  await page.locator('.language-switcher summary').click();
  await page.locator('.language-switcher').getByRole('link', { name: 'Deutsch' }).click();
  await expect(page).toHaveURL(/\/de\/cookie-policy$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.locator('table')).toBeVisible();
});
