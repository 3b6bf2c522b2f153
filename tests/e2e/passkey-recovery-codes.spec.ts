import { expect, test } from '@playwright/test';
import { allowVisitor, mailTo, newPerson, registerThroughApi } from './accounts.ts';
import { expectAccessible, waitForHydration } from './helpers.ts';
import { virtualAuthenticator } from './virtual-authenticator.ts';

test('a member whose only second factor is a passkey renews the recovery codes and signs in with one when the passkey is lost', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const authenticator = await virtualAuthenticator(page);
  const person = newPerson();
  await allowVisitor(context, baseURL ?? '');
  await registerThroughApi(context.request, baseURL ?? '', person);
  await page.goto('/en/account');
  await waitForHydration(page);

  // The first passkey brings recovery codes, shown once.
  const passkeys = page.locator('#passkeys');
  await page.locator('#passkey-add-name').fill('This laptop');
  await page.locator('#passkey-add-password').fill(person.password);
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(passkeys.locator('.account__codes code')).toHaveCount(10);
  const first = await passkeys.locator('.account__codes code').allTextContents();
  await passkeys.getByRole('button', { name: 'I have saved my codes' }).click();

  // Two-step verification says the passkey is the second step and offers the codes, without an app.
  const twoFactor = page.locator('#two-factor');
  await expect(twoFactor.getByText('Your passkeys are your second step')).toBeVisible();
  await expect(twoFactor.getByRole('heading', { name: 'New recovery codes' })).toBeVisible();
  await expect(twoFactor.getByText('10 unused recovery codes left.')).toBeVisible();
  await expect(twoFactor.getByRole('button', { name: 'Turn off' })).toHaveCount(0);
  await expectAccessible(page);

  // New codes take the password; they are shown once, with a download, and the owner is mailed.
  await page.locator('#recovery-codes-password').fill('not the password');
  await twoFactor.getByRole('button', { name: 'Make new codes' }).click();
  await expect(page.locator('#recovery-codes-password-error')).toBeVisible();
  await expectAccessible(page);
  await page.locator('#recovery-codes-password').fill(person.password);
  await twoFactor.getByRole('button', { name: 'Make new codes' }).click();
  await expect(twoFactor.getByRole('heading', { name: 'Your recovery codes' })).toBeVisible();
  await expect(twoFactor.getByRole('heading', { name: 'Two-step verification' })).toBeFocused();
  const fresh = await twoFactor.locator('.account__codes code').allTextContents();
  expect(fresh).toHaveLength(10);
  expect(fresh.filter((code) => first.includes(code))).toEqual([]);
  const download = twoFactor.getByRole('link', { name: 'Download as a text file' });
  await expect(download).toHaveAttribute('download', /-recovery-codes\.txt$/);
  expect(decodeURIComponent((await download.getAttribute('href')) ?? '')).toContain(fresh[0]);
  await expectAccessible(page);
  expect((await mailTo(person.email, 2)).subject).toBe('New recovery codes for your Your Company account');
  await twoFactor.getByRole('button', { name: 'I have saved my codes' }).click();
  await expect(twoFactor.getByText('10 unused recovery codes left.')).toBeVisible();

  // The passkey is lost: the password's second step asks for a recovery code, and an old one fails.
  await authenticator.lose();
  await page.locator('main').getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/en$/);
  await page.goto('/en/login');
  await waitForHydration(page);
  await page.locator('#login-email').fill(person.email);
  await page.locator('#login-password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('If you have lost it, enter one of your recovery codes instead.')).toBeVisible();
  const code = page.getByRole('textbox', { name: 'Recovery code', exact: true });
  await expect(code).toBeFocused();
  await expectAccessible(page);
  await code.fill(first[0] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.locator('#second-step-code-error')).toBeVisible();
  await expectAccessible(page);
  await code.fill(fresh[0] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(page.locator('#two-factor').getByText('9 unused recovery codes left.')).toBeVisible();
  expect((await mailTo(person.email, 3)).subject).toContain('recovery code');
});
