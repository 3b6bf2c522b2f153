import { randomBytes } from 'node:crypto';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { allowVisitor, newPerson, registerThroughApi } from './accounts.ts';
import { expectAccessible, waitForHydration } from './helpers.ts';
import { OIDC_SITE } from './settings.ts';

// Every test runs on the site that offers the test provider.
test.use({ baseURL: OIDC_SITE });
// Each test goes through the provider and back a few times (each a full page load) and runs axe on
// every state: more time than a page of its own needs.
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 15_000 });

/** Someone at the test provider: a subject no other test uses, with a verified address. */
const providerPerson = () => {
  const tag = randomBytes(4).toString('hex');
  return { subject: `sub-${tag}`, email: `grace-${tag}@example.com`, name: `Grace Hopper ${tag}` };
};

/** The provider's sign-in form, filled in as that person; the browser goes back to the site. */
async function signInAtProvider(page: Page, person: ReturnType<typeof providerPerson>, verified = true) {
  await expect(page.getByRole('heading', { name: 'Test provider' })).toBeVisible();
  await page.getByLabel('Subject').fill(person.subject);
  await page.getByLabel('Email', { exact: true }).fill(person.email);
  if (verified) await page.getByLabel('Email verified').check();
  await page.getByLabel('Name').fill(person.name);
  await page.getByRole('button', { name: 'Continue' }).click();
}

async function openSignIn(page: Page) {
  await page.goto('/en/login');
  await waitForHydration(page);
  await expect(page.getByRole('heading', { name: 'Or sign in with' })).toBeVisible();
}

test('a first sign-in through the provider makes an account, and the next one lands in the same account', async ({
  page,
}) => {
  const person = providerPerson();
  await openSignIn(page);
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Sign in with Test ID' }).click();
  await signInAtProvider(page, person);

  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(page.getByText(person.email, { exact: true })).toBeVisible();
  const services = page.getByRole('region', { name: 'Sign-in services' });
  await expect(services.getByText(`Test ID (${person.email})`)).toBeVisible();
  await expect(services.getByText('This is your only way to sign in.', { exact: false })).toBeVisible();
  await expect(services.getByRole('button', { name: 'Unlink' })).toHaveCount(0);
  await expectAccessible(page);

  // Signed out of the site, then in again: the provider still knows the person and sends them
  // straight back, to the same account.
  await page.locator('main').getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/en$/);
  await openSignIn(page);
  await page.getByRole('link', { name: 'Sign in with Test ID' }).click();
  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(page.getByText(person.email, { exact: true })).toBeVisible();
  await expect(services.getByText(`Test ID (${person.email})`)).toHaveCount(1);
});

test('the sign-in page says what went wrong: an address the provider did not verify, a cancel', async ({
  page,
  browser,
}) => {
  await openSignIn(page);
  await page.getByRole('link', { name: 'Sign in with Test ID' }).click();
  await signInAtProvider(page, providerPerson(), false);
  await expect(page).toHaveURL(/\/en\/login$/);
  await expect(
    page.getByText('The sign-in service has not confirmed your email address', { exact: false }),
  ).toBeVisible();
  await expectAccessible(page);
  // No account was made: this is the sign-in page still.
  await expect(page.getByRole('link', { name: 'Sign in with Test ID' })).toBeVisible();

  // Someone else, in another browser, cancels at the provider.
  const elsewhere = await browser.newContext({ baseURL: OIDC_SITE });
  const other = await elsewhere.newPage();
  await openSignIn(other);
  await other.getByRole('link', { name: 'Sign in with Test ID' }).click();
  await other.getByRole('button', { name: 'Cancel' }).click();
  await expect(other).toHaveURL(/\/en\/login$/);
  await expect(other.getByText('The sign-in service did not let you in, or you cancelled.')).toBeVisible();
  await expectAccessible(other);
  await elsewhere.close();
});

test('an address that has an account is not signed in through the provider: its owner links the identity on the account page', async ({
  page,
  context,
  browser,
}) => {
  const member = newPerson();
  const person = { ...providerPerson(), email: member.email };
  await allowVisitor(context, OIDC_SITE);
  await registerThroughApi(context.request, OIDC_SITE, member);

  // Someone at the provider with the member's address, in another browser, is told what to do instead.
  const strangers = await browser.newContext({ baseURL: OIDC_SITE });
  const stranger = await strangers.newPage();
  await openSignIn(stranger);
  await stranger.getByRole('link', { name: 'Sign in with Test ID' }).click();
  await signInAtProvider(stranger, person);
  await expect(stranger).toHaveURL(/\/en\/login$/);
  await expect(
    stranger.getByText('An account with this email address already exists. Sign in with its password', {
      exact: false,
    }),
  ).toBeVisible();
  await expectAccessible(stranger);
  await strangers.close();

  // The owner, signed in, links it.
  await page.goto('/en/account');
  await waitForHydration(page);
  const services = page.getByRole('region', { name: 'Sign-in services' });
  await expect(services.getByText('No service is linked to your account.')).toBeVisible();
  await expectAccessible(page);
  await services.getByRole('button', { name: 'Link Test ID' }).click();
  await signInAtProvider(page, person);
  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(page.getByText('The service is linked: you can now sign in with it.')).toBeVisible();
  await expect(services.getByText(`Test ID (${member.email})`)).toBeVisible();
  await expectAccessible(page);

  // With a password to fall back on, the identity can be unlinked.
  await services.getByRole('button', { name: 'Unlink Test ID' }).click();
  await expect(page.getByText('Test ID is unlinked.')).toBeVisible();
  await expect(services.getByText('No service is linked to your account.')).toBeVisible();
  await expectAccessible(page);
});
