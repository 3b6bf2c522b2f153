import { expect, type Page, test } from '@playwright/test';
import { allowVisitor, mailTo, newPerson, registerThroughApi } from './accounts.ts';
import { expectAccessible, waitForHydration } from './helpers.ts';
import { enrolOnAccountPage, freshCode } from './second-factor.ts';
import { virtualAuthenticator } from './virtual-authenticator.ts';

const signOut = async (page: Page) => {
  await page.locator('main').getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/en$/);
};

const openSignIn = async (page: Page) => {
  await page.goto('/en/login');
  await waitForHydration(page);
};

test('a member adds a passkey, names it, and signs in with it from the autofill, the button and the second step', async ({
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
  const section = page.locator('#passkeys');
  await expect(section.getByText('You have no passkeys yet.')).toBeVisible();
  await expectAccessible(page);

  // A name and the password; the browser makes the passkey; the first second factor brings recovery codes.
  await page.locator('#passkey-add-password').fill(person.password);
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.locator('#passkey-add-name-error')).toBeVisible();
  await expectAccessible(page);
  await page.locator('#passkey-add-name').fill('This laptop');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByRole('heading', { name: 'Your recovery codes' })).toBeVisible();
  await expect(section.getByRole('heading', { name: 'Passkeys' })).toBeFocused();
  await expect(section.locator('.account__codes code')).toHaveCount(10);
  await expectAccessible(page);
  await section.getByRole('button', { name: 'I have saved my codes' }).click();
  const list = section.getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByText('This laptop')).toBeVisible();
  await expect(list.getByText('Not used to sign in yet')).toBeVisible();
  expect(await authenticator.credentials()).toHaveLength(1);
  expect((await mailTo(person.email, 1)).subject).toBe('A passkey was added to your Your Company account');

  await list.getByRole('button', { name: 'Rename: This laptop' }).click();
  await expect(page.locator('#passkey-rename-name')).toBeFocused();
  await expectAccessible(page);
  await page.locator('#passkey-rename-name').fill('Work laptop');
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The passkey was renamed.')).toBeVisible();
  await expect(list.getByText('Work laptop')).toBeVisible();

  // The browser offers the passkey under the email field (conditional mediation): no button, no
  // password. Chromium's virtual authenticator takes the offer as soon as the page makes it, before
  // anyone focuses the field, so the field is read from the page as served.
  await signOut(page);
  const served = await (await page.request.get('/en/login')).text();
  // (HTML names are case-blind: React writes `autoComplete`.)
  expect(served.match(/<input[^>]*id="login-email"[^>]*>/)?.[0]).toMatch(/autocomplete="username webauthn"/i);
  await page.goto('/en/login');
  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(list).toContainText('Last used on ');

  // Where the browser offers no autofill, the button does it.
  await signOut(page);
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  });
  await openSignIn(page);
  const button = page.getByRole('button', { name: 'Sign in with a passkey' });
  await expect(button).toBeVisible();
  await expectAccessible(page);
  await button.click();
  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(list.getByText('Work laptop')).toBeVisible();

  // The password alone now asks for the second factor, which the passkey gives too.
  await signOut(page);
  await openSignIn(page);
  await page.locator('#login-email').fill(person.email);
  await page.locator('#login-password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Two-step verification' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Use your passkey instead' }).click();
  await expect(page).toHaveURL(/\/en\/account$/);

  // Removing it takes the password.
  await list.getByRole('button', { name: 'Remove: Work laptop' }).click();
  await expect(page.locator('#passkey-remove-password')).toBeFocused();
  await expectAccessible(page);
  await page.locator('#passkey-remove-password').fill('not the password');
  await section.getByRole('button', { name: 'Remove the passkey' }).click();
  await expect(page.locator('#passkey-remove-password-error')).toBeVisible();
  await page.locator('#passkey-remove-password').fill(person.password);
  await section.getByRole('button', { name: 'Remove the passkey' }).click();
  await expect(page.getByText('The passkey was removed.')).toBeVisible();
  await expect(section.getByText('You have no passkeys yet.')).toBeVisible();
  await expectAccessible(page);
  expect((await mailTo(person.email, 2)).subject).toBe('A passkey was removed from your Your Company account');
});

test('a browser trusted at the second step skips it for 30 days, is listed on the account page, and can be revoked', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const person = newPerson();
  await allowVisitor(context, baseURL ?? '');
  await registerThroughApi(context.request, baseURL ?? '', person);
  await page.goto('/en/account');
  await waitForHydration(page);
  const { secret } = await enrolOnAccountPage(page, person.password);
  await page.getByRole('button', { name: 'I have saved my codes' }).click();

  const passwordStep = async () => {
    await openSignIn(page);
    await page.locator('#login-email').fill(person.email);
    await page.locator('#login-password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  };
  await signOut(page);
  await passwordStep();
  await expect(page.locator('#second-step-code')).toBeFocused();
  await page.getByRole('checkbox', { name: 'Trust this browser for 30 days' }).check();
  await expectAccessible(page);
  await page.locator('#second-step-code').fill(await freshCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/en\/account$/);

  const trusted = page.locator('#two-factor').getByRole('listitem').filter({ hasText: '(this browser)' });
  await expect(trusted).toContainText(/Chrome, \w+ \(this browser\)/);
  await expect(trusted).toContainText(/Trusted until /);
  await expectAccessible(page);

  // Trusted: the password alone signs in here.
  await signOut(page);
  await passwordStep();
  await expect(page).toHaveURL(/\/en\/account$/);

  // Revoked: the code is asked again.
  await trusted.getByRole('button', { name: /^Stop trusting: / }).click();
  await expect(page.getByText('That browser will ask for a code again.')).toBeVisible();
  await expect(trusted).toHaveCount(0);
  await expectAccessible(page);
  await signOut(page);
  await passwordStep();
  await expect(page.locator('#second-step-code')).toBeFocused();
});
