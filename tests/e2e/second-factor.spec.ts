import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { allowVisitor, mailTo, newPerson, registerThroughApi } from './accounts.ts';
import { expectAccessible, waitForHydration } from './helpers.ts';
import { enrolOnAccountPage, freshCode } from './second-factor.ts';
import { newStaff, consoleTexts as t } from './staff.ts';

const signInThroughPage = async (page: import('@playwright/test').Page, email: string, password: string) => {
  await page.goto('/en/login');
  await waitForHydration(page);
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Two-step verification' })).toBeVisible();
  await expect(page.locator('#second-step-code')).toBeFocused();
};

const signOut = (page: import('@playwright/test').Page) =>
  page.locator('main').getByRole('button', { name: 'Sign out', exact: true }).click();

test('a member sets up an authenticator app, keeps the recovery codes, and signs in with a code and with a recovery code', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const person = newPerson();
  await allowVisitor(context, baseURL ?? '');
  await registerThroughApi(context.request, baseURL ?? '', person);
  await page.goto('/en/account');
  await waitForHydration(page);
  await expect(page.getByText('Two-step verification is off.', { exact: false })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeFocused();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Cancel' }).click();
  const { secret, codes } = await enrolOnAccountPage(page, person.password);
  await expectAccessible(page);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download as a text file' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('localhost-recovery-codes.txt');
  const file = await readFile((await download.path()) ?? '', 'utf8');
  for (const code of codes) expect(file).toContain(code);

  await page.getByRole('button', { name: 'I have saved my codes' }).click();
  await expect(page.getByText('10 unused recovery codes left.')).toBeVisible();
  await expectAccessible(page);
  expect((await mailTo(person.email, 1)).subject).toBe('Two-step verification is now on for your Your Company account');

  // The password alone no longer signs in: a wrong code is said under the field, a right one opens the account.
  await signOut(page);
  await expect(page).toHaveURL(/\/en$/);
  await signInThroughPage(page, person.email, person.password);
  await expectAccessible(page);
  await page.locator('#second-step-code').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.locator('#second-step-code-error')).toContainText('This code is not right');
  await expectAccessible(page);
  await page.locator('#second-step-code').fill(await freshCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(page.getByText('Two-step verification is on:', { exact: false })).toBeVisible();

  // Without the phone: a recovery code, once.
  await signOut(page);
  await signInThroughPage(page, person.email, person.password);
  await page.locator('#second-step-code').fill(codes[0] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(page.getByText('9 unused recovery codes left.')).toBeVisible();
  expect((await mailTo(person.email, 2)).subject).toBe('A recovery code was used to sign in to Your Company');
});

test('an admin made with the staff command is led through setting up the app before the console opens', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await newStaff(context, baseURL ?? '', 'admin', 'Ada Admin', { secondFactor: false });
  await page.goto('/console');
  await expect(page).toHaveURL(/\/en\/login\?next=/);
  await waitForHydration(page);
  await page.locator('#login-email').fill(admin.email);
  await page.locator('#login-password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  await expect(page).toHaveURL(/\/console$/);
  await expect(page.locator('h1')).toHaveText(t.secondFactor.title);
  await expectAccessible(page);
  await page.getByRole('link', { name: t.secondFactor.action }).click();
  await expect(page).toHaveURL(/\/en\/account\?next=%2Fconsole#two-factor$/);
  await waitForHydration(page);
  await expect(page.getByText('Your account has access to the console', { exact: false })).toBeVisible();
  await enrolOnAccountPage(page, admin.password);
  await page.getByRole('link', { name: 'Continue to the console' }).click();
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.locator('h1')).toHaveText(t.inbox.title);
});
