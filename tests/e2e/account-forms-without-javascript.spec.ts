import { readFileSync } from 'node:fs';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { codeIn, field, mailTo, newPerson, ownAddress } from './accounts.ts';
import { expectAccessible } from './helpers.ts';

test.use({ javaScriptEnabled: false });

const texts = (ns: string) => JSON.parse(readFileSync(`public/locales/en/${ns}.json`, 'utf8'));
const register = texts('register');
const validation = texts('validation');
const login = texts('login');
const errors = texts('errors');

/**
 * Axe needs JavaScript in the page it checks: it checks the page as this browser shows it, copied
 * into a browser with JavaScript (without the app's scripts, so the copy stays as it is).
 */
async function expectAccessibleAsShown(page: Page, browser: Browser) {
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/g, '');
  const address = page.url().split('#')[0] ?? '';
  const copy = await browser.newContext({ javaScriptEnabled: true });
  const twin = await copy.newPage();
  await twin.route(address, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  await twin.goto(address);
  await expectAccessible(twin);
  await copy.close();
}

test('register, confirm, sign in and reset the password with plain form posts', async ({ page, context, browser }) => {
  test.setTimeout(90_000);
  await context.setExtraHTTPHeaders({ 'X-Forwarded-For': ownAddress() });
  const person = newPerson();

  // A refused registration: the page again, the error at the top and under the field, what was typed kept.
  await page.goto('/en/register');
  await expect(page.getByText(texts('common').form.noScript)).toHaveCount(0);
  await expectAccessibleAsShown(page, browser);
  await field(page, register.name).fill(person.name);
  await field(page, register.email).fill('not an address');
  await field(page, register.phone).fill(person.phone);
  await field(page, register.password).fill(person.password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: register.submit, exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(errors.VALIDATION_ERROR);
  // The error line's "!" mark is drawn by its style and read with it.
  await expect(field(page, register.email)).toHaveAccessibleDescription(`! ${errors.INVALID_EMAIL}`);
  await expect(field(page, register.email)).toBeFocused();
  await expect(field(page, register.name)).toHaveValue(person.name);
  await expect(field(page, register.password)).toHaveValue('');
  await expect(page.getByRole('checkbox')).toBeChecked();
  await expectAccessibleAsShown(page, browser);

  await field(page, register.email).fill(person.email);
  await field(page, register.password).fill(person.password);
  await page.getByRole('button', { name: register.submit, exact: true }).click();
  await expect(page).toHaveURL(/\/en\/validation#email=/);
  await expectAccessibleAsShown(page, browser);

  // The address is typed again: the page cannot read it from the address without JavaScript.
  await field(page, validation.email).fill(person.email);
  await field(page, validation.code).fill(codeIn(await mailTo(person.email)));
  await page.getByRole('button', { name: validation.submit, exact: true }).click();
  await expect(page).toHaveURL(/\/en\/account$/);
  await expectAccessibleAsShown(page, browser);

  // Signed out (the account page's buttons need JavaScript), then in again.
  await context.clearCookies();
  await page.goto('/en/login');
  await field(page, login.email).fill(person.email);
  await field(page, login.password).fill(person.password);
  await page.getByRole('button', { name: login.submit, exact: true }).click();
  await expect(page).toHaveURL(/\/en\/account$/);

  await context.clearCookies();
  await page.goto('/en/forgot-password');
  await field(page, login.forgot.email).fill(person.email);
  await page.getByRole('button', { name: login.forgot.send, exact: true }).click();
  await expect(page).toHaveURL(/\/en\/forgot-password\/code#email=/);
  await expect(page.getByText(login.forgot.sentLead)).toBeVisible();
  await expectAccessibleAsShown(page, browser);

  const newPassword = `${person.password} renewed`;
  await field(page, login.forgot.email).fill(person.email);
  // The first mail held the registration's code.
  await field(page, login.forgot.code).fill(codeIn(await mailTo(person.email, 1)));
  await field(page, login.forgot.password).fill(newPassword);
  await page.getByRole('button', { name: login.forgot.submit, exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: login.forgot.done })).toBeVisible();
  await expectAccessibleAsShown(page, browser);

  await field(page, login.email).fill(person.email);
  await field(page, login.password).fill(newPassword);
  await page.getByRole('button', { name: login.submit, exact: true }).click();
  await expect(page).toHaveURL(/\/en\/account$/);
});
