import { randomBytes } from 'node:crypto';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { expectAccessible, waitForHydration } from './helpers.ts';
import { OIDC_SITE } from './settings.ts';

// An account made by the test provider has no password: its sensitive changes are confirmed by
// signing in there again (docs/decisions/220).
test.use({ baseURL: OIDC_SITE });
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 15_000 });

const providerPerson = () => {
  const tag = randomBytes(4).toString('hex');
  return { subject: `sub-${tag}`, email: `ada-${tag}@example.com`, name: `Ada Lovelace ${tag}` };
};

/** The provider's sign-in form, filled in as that person; the browser goes back to the site. */
async function signInAtProvider(page: Page, person: ReturnType<typeof providerPerson>) {
  await expect(page.getByRole('heading', { name: 'Test provider' })).toBeVisible();
  await page.getByLabel('Subject').fill(person.subject);
  await page.getByLabel('Email', { exact: true }).fill(person.email);
  await page.getByLabel('Email verified').check();
  await page.getByLabel('Name').fill(person.name);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** A new account, made by signing in at the provider: its account page. */
async function passwordlessAccount(page: Page) {
  const person = providerPerson();
  await page.goto('/en/login');
  await waitForHydration(page);
  await page.getByRole('link', { name: 'Sign in with Test ID' }).click();
  await signInAtProvider(page, person);
  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(page.getByText(person.email, { exact: true })).toBeVisible();
  return person;
}

test('an account without a password confirms at its provider, comes back to the change it was making, and makes it', async ({
  page,
}) => {
  const person = await passwordlessAccount(page);
  const deletion = page.getByRole('region', { name: 'Delete your account' });
  const email = page.getByRole('region', { name: 'Change your email address' });
  // No password field where the account has none: the provider to confirm with instead.
  await expect(deletion.getByRole('button', { name: 'Confirm with Test ID' })).toBeVisible();
  await expect(deletion.getByLabel('Your password')).toHaveCount(0);
  await expect(email.getByLabel('Current password')).toHaveCount(0);
  await expectAccessible(page);

  // A new address: the provider asks for a sign-in again (it would otherwise send the browser
  // straight back), and the page comes back to the address field.
  await email.getByRole('button', { name: 'Confirm with Test ID' }).click();
  await signInAtProvider(page, person);
  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(
    page.getByText('You have confirmed that it is you. You can now make one change within 5 minutes.'),
  ).toBeVisible();
  await expect(email.getByLabel('New email address')).toBeFocused();
  await expect(email.getByText('You can make one change without a password until', { exact: false })).toBeVisible();
  await expectAccessible(page);
  await email.getByLabel('New email address').fill(`new-${person.email}`);
  await email.getByRole('button', { name: 'Send code' }).click();
  await expect(email.getByText(`We have sent a code to new-${person.email}.`, { exact: false })).toBeVisible();
  // Spent by that change: the next one asks again.
  await expect(deletion.getByRole('button', { name: 'Confirm with Test ID' })).toBeVisible();

  // Deleting the account: confirmed, back on the button that deletes it.
  await deletion.getByRole('button', { name: 'Confirm with Test ID' }).click();
  await signInAtProvider(page, person);
  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(deletion.getByRole('button', { name: 'Delete my account' })).toBeFocused();
  await expectAccessible(page);
  await deletion.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/en$/);
});

test('signing in at the provider as someone else confirms nothing; the owner confirms and sets a first password', async ({
  page,
}) => {
  const person = await passwordlessAccount(page);
  const deletion = page.getByRole('region', { name: 'Delete your account' });
  await deletion.getByRole('button', { name: 'Confirm with Test ID' }).click();
  await signInAtProvider(page, providerPerson());
  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(page.getByText('You signed in at the service with another identity', { exact: false })).toBeVisible();
  // Back on the button to try again.
  await expect(deletion.getByRole('button', { name: 'Confirm with Test ID' })).toBeFocused();
  await expectAccessible(page);
  // The deletion is refused without a confirmation.
  await deletion.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByText('Confirm that it is you first', { exact: false })).toBeVisible();
  await expect(page).toHaveURL(/\/en\/account$/);

  // A first password: confirmed by the owner at the provider, back on the new password's field.
  const password = page.getByRole('region', { name: 'Set a password' });
  await password.getByRole('button', { name: 'Confirm with Test ID' }).click();
  await signInAtProvider(page, person);
  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(password.getByLabel('New password')).toBeFocused();
  await expectAccessible(page);
  await password.getByLabel('New password').fill(`Lantern-${randomBytes(4).toString('hex')}-orchard`);
  await password.getByRole('button', { name: 'Set password' }).click();
  await expect(
    page.getByText('Your password is set: you can now sign in with your email address as well.'),
  ).toBeVisible();
  // From now on the account's changes ask for that password, as any other account's do.
  await expect(page.getByRole('region', { name: 'Change your password' })).toBeVisible();
  await expect(deletion.getByLabel('Your password')).toBeVisible();
  await expect(deletion.getByRole('button', { name: 'Confirm with Test ID' })).toHaveCount(0);
  // And the provider is no longer its only way in: it may be unlinked.
  const services = page.getByRole('region', { name: 'Sign-in services' });
  await expect(services.getByRole('button', { name: 'Unlink Test ID' })).toBeVisible();
  await expectAccessible(page);
});
