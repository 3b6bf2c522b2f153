import { expect, type Page, test } from '@playwright/test';
import { ACCOUNT_API } from '#common/account-api.ts';
import { ACCOUNT_SETTINGS_API } from '#common/account-settings-api.ts';
import { storageEntry } from '#common/storage.ts';
import {
  allowVisitor,
  codeIn,
  field,
  mailTo,
  newPerson,
  registerThroughApi,
  registerThroughPage,
  unexpected,
} from './accounts.ts';
import { expectAccessible, layoutShift, waitForHydration, watchConsole } from './helpers.ts';
import { SHORT_SESSION_IDLE_SECONDS, SHORT_SESSION_PORT } from './settings.ts';

const toasts = (page: Page) => page.locator('.toasts__list');

test('register, confirm from the mail, sign out and in, reset the password, delete the account', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const problems = watchConsole(page);
  await allowVisitor(context, baseURL ?? '');
  const person = newPerson('Zoë Ångström');

  await registerThroughPage(page, 'en', person);
  await expect(toasts(page)).toContainText(`We have sent a code to ${person.email}`);
  await expect(field(page, 'Email address')).toHaveValue(person.email);
  const mail = await mailTo(person.email);
  expect(mail.subject).toBe('Confirm your email address for Your Company');
  await field(page, 'Code').fill(codeIn(mail));
  await page.getByRole('button', { name: 'Confirm' }).click();

  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(page.locator('dl')).toContainText(person.email);
  await expect(page.locator('.header-account__name')).toHaveText(`Signed in as ${person.name}`);
  await expectAccessible(page);

  // Sign out from the header, then in again. The account page hears that nobody is signed in and
  // must not take it for a lost session (which sends the visitor to sign in, saying so).
  await page.evaluate(() => {
    const replaced: string[] = [];
    Object.assign(window, { replacedAddresses: replaced });
    const replace = history.replaceState.bind(history);
    history.replaceState = (data, unused, url) => {
      if (url) replaced.push(String(url));
      replace(data, unused, url);
    };
  });
  await page.locator('header').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/en$/);
  await expect(toasts(page)).toContainText('You are signed out.');
  const replaced = await page.evaluate(() => (window as unknown as { replacedAddresses: string[] }).replacedAddresses);
  expect(replaced.filter((address) => address.includes('/login'))).toEqual([]);
  await page.locator('header').getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/en\/login$/);
  await field(page, 'Email address').fill(person.email);
  await field(page, 'Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(toasts(page)).toContainText(`Welcome back, ${person.name}!`);

  // Forgot the password: a code by mail, a new password, and every session ends.
  await page.locator('main').getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/en$/);
  await page.goto('/en/forgot-password');
  await waitForHydration(page);
  await field(page, 'Email address').fill(person.email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(field(page, 'Code from the email')).toBeFocused();
  const reset = await mailTo(person.email, 1);
  expect(reset.subject).toBe('Reset your Your Company password');
  await field(page, 'Code from the email').fill(codeIn(reset));
  await field(page, 'New password').fill('a new password 123');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/en\/login$/);
  await expect(toasts(page)).toContainText('Your password has been changed');

  await field(page, 'Email address').fill(person.email);
  await field(page, 'Password').fill('a new password 123');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/en\/account$/);

  // Delete the account: a wrong password first, then the right one.
  const danger = page.locator('.account__danger');
  await danger.getByRole('textbox', { name: 'Your password', exact: true }).fill('not my password');
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.locator('.field__error')).toHaveText(
    'We could not confirm it is you. Please check your password and try again.',
  );
  await expect(danger.getByRole('textbox', { name: 'Your password', exact: true })).toBeFocused();
  await expectAccessible(page);
  await danger.getByRole('textbox', { name: 'Your password', exact: true }).fill('a new password 123');
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/en$/);
  await expect(toasts(page)).toContainText('Your account has been deleted.');

  await page.goto('/en/login');
  await waitForHydration(page);
  await field(page, 'Email address').fill(person.email);
  await field(page, 'Password').fill('a new password 123');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.locator('.field__error')).toContainText(
    'The email address or the password is not correct. Check both, or reset your password',
  );
  expect(unexpected(problems)).toEqual([]);
});

const WRONG_CODE =
  'Questo codice è sbagliato, è scaduto o è già stato usato. Un codice vale una sola volta, per 10 minuti e per al massimo 5 tentativi. Controllalo o chiedi un nuovo codice.';

test('five wrong codes spend the code; a new one from the mail works', async ({ page, context, baseURL }) => {
  test.setTimeout(60_000);
  await allowVisitor(context, baseURL ?? '');
  const person = newPerson();
  await registerThroughPage(page, 'it', person);

  const mail = await mailTo(person.email);
  expect(mail.subject).toBe('Conferma il tuo indirizzo email per Your Company');
  const code = codeIn(mail);
  // A different wrong code each time: the form does not send again a code the server just refused.
  const wrong = (attempt: number) => String((Number(code) + attempt) % 1_000_000).padStart(6, '0');
  const error = page.locator('.field__error');
  for (let attempt = 1; attempt <= 5; attempt++) {
    await field(page, 'Codice').fill(wrong(attempt));
    await page.getByRole('button', { name: 'Conferma', exact: true }).click();
    await expect(error).toHaveText(WRONG_CODE);
    await expect(field(page, 'Codice')).toBeFocused();
  }
  await field(page, 'Codice').fill(code);
  await page.getByRole('button', { name: 'Conferma', exact: true }).click();
  await expect(error).toHaveText(WRONG_CODE);
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Invia un nuovo codice' }).click();
  await expect(toasts(page)).toContainText('Abbiamo inviato un nuovo codice a questo indirizzo');
  const fresh = codeIn(await mailTo(person.email, 1));
  await field(page, 'Codice').fill(fresh);
  await page.getByRole('button', { name: 'Conferma', exact: true }).click();
  await expect(page).toHaveURL(/\/it\/account$/);
  await expect(page.locator('h1')).toHaveText('Il tuo account');
});

test('the link in the mail fills in the code', async ({ page, context, baseURL }) => {
  await allowVisitor(context, baseURL ?? '');
  const person = newPerson();
  await registerThroughPage(page, 'de', person);

  const mail = await mailTo(person.email);
  const link = new URL(/http\S+#\S+/.exec(mail.text)?.[0] ?? '');
  expect(link.pathname).toBe('/de/validation');
  // As when the mail is opened later: a fresh page load, not a jump within the open page.
  await page.goto('about:blank');
  await page.goto(`${link.pathname}${link.hash}`);
  await waitForHydration(page);
  await expect(field(page, 'Code')).toHaveValue(codeIn(mail));
  await expect(page).toHaveURL(/\/de\/validation$/);
  await page.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(page).toHaveURL(/\/de\/account$/);
});

test('a visitor without a session who asks for the account gets sign-in in one answer, told why, then the account', async ({
  page,
  context,
  baseURL,
}) => {
  const site = baseURL ?? '';
  const problems = watchConsole(page);
  await allowVisitor(context, site);
  const person = newPerson('Élodie Marchand');
  await registerThroughApi(page.request, site, person);
  const signedOut = await page.request.post(`${site}${ACCOUNT_API.logout}`, { data: {}, headers: { Origin: site } });
  expect(signedOut.ok()).toBe(true);

  // The answer to /fr/account is the sign-in page itself: no redirect, no page of the account first.
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
  });
  const answer = await page.goto('/fr/account?ref=mail#top');
  expect(answer?.status()).toBe(200);
  expect(answer?.headers().vary).toContain('Cookie');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connexion');
  await expect(page).toHaveURL(`${site}/fr/login?ref=mail#top`);
  await waitForHydration(page);
  await expect(toasts(page)).toContainText('Veuillez vous connecter pour continuer.');
  await expectAccessible(page);

  await field(page, 'Adresse e-mail').fill(person.email);
  await field(page, 'Mot de passe').fill(person.password);
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
  await expect(page).toHaveURL(`${site}/fr/account`);
  await expect(page.locator('dl')).toContainText(person.email);

  // Signed in, the same address is the account, straight from the server.
  await page.reload();
  await expect(page.locator('dl')).toContainText(person.email);
  await expect(page).toHaveURL(`${site}/fr/account`);
  expect(documents).toEqual(['/fr/account', '/fr/account']);
  expect(unexpected(problems)).toEqual([]);
});

test('a signed-in cookie left without a session gets the account page, which sends the visitor to sign in', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: storageEntry('signedIn').name, value: '1', url: baseURL ?? '' }]);
  const answer = await page.goto('/de/account');
  expect(await answer?.text()).toContain('<h1>Ihr Konto</h1>');
  await expect(page).toHaveURL(/\/de\/login$/);
  await expect(toasts(page)).toContainText('Bitte melden Sie sich an, um fortzufahren.');
  await expectAccessible(page);
});

test('an expired session sends the visitor to sign in, saying so', async ({ page, context }) => {
  test.setTimeout(60_000);
  const site = `http://localhost:${SHORT_SESSION_PORT}`;
  await allowVisitor(context, site);
  const person = newPerson();
  await registerThroughApi(page.request, site, person);

  await page.goto(`${site}/en/account`);
  await expect(page.locator('dl')).toContainText(person.email);
  await page.waitForTimeout((SHORT_SESSION_IDLE_SECONDS + 1) * 1000);
  await page.reload();
  await expect(page).toHaveURL(`${site}/en/login`);
  await expect(toasts(page)).toContainText('Your session has expired. Please sign in again.');
  await expect(page.locator('.header-account')).toHaveCount(0);
});

test('the header shows who is signed in without moving anything or a hydration warning', async ({
  page,
  context,
  baseURL,
}) => {
  const problems = watchConsole(page);
  await allowVisitor(context, baseURL ?? '');
  const person = newPerson('Somchai Jaidee');
  await registerThroughApi(page.request, baseURL ?? '', person);

  // A wide screen shows name and sign-out; a phone the name alone, in the same row as before.
  for (const [width, signOutShown] of [
    [1280, true],
    [390, false],
  ] as const) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto('/th/about');
    await waitForHydration(page);
    await expect(page.locator('.header-account__name')).toContainText('Somchai Jaidee');
    // The room kept for "Sign in" (styles/layout.css) is not part of the link's name.
    await expect(page.locator('.header-account__name')).toHaveAccessibleName('เข้าสู่ระบบในชื่อ Somchai Jaidee');
    await expect(page.locator('header').getByRole('button', { name: 'ออกจากระบบ' })).toBeVisible({
      visible: signOutShown,
    });
    expect(await layoutShift(page), `layout shift at ${width}px`).toBe(0);
  }
  await expectAccessible(page);
  expect(problems).toEqual([]);
});

test('a visitor who is not signed in loads nothing for the account corner', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  await page.goto('/nl/about');
  await waitForHydration(page);
  await page.waitForTimeout(500);
  expect(requests.filter((path) => path.startsWith('/api/') || path.includes('HeaderAccount'))).toEqual([]);
  await expect(page.locator('header').getByRole('link', { name: 'Inloggen' })).toBeVisible();
});

test('signing out on the account page leads home, even when a call made before answers after it that the session is gone', async ({
  page,
  context,
  baseURL,
}) => {
  await allowVisitor(context, baseURL ?? '');
  const person = newPerson();
  await registerThroughApi(page.request, baseURL ?? '', person);
  // The list of sessions is asked for as the page opens; it reaches the server only after the sign-out.
  let signedOut: () => void = () => {};
  const afterSignOut = new Promise<void>((resolve) => {
    signedOut = resolve;
  });
  await page.route(`**${ACCOUNT_SETTINGS_API.sessions}`, async (route) => {
    await afterSignOut;
    await route.continue();
  });
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === ACCOUNT_API.logout) signedOut();
  });
  const lateAnswer = page.waitForResponse(
    (response) => new URL(response.url()).pathname === ACCOUNT_SETTINGS_API.sessions,
  );
  await page.goto('/en/account');
  await waitForHydration(page);
  await page.locator('main').getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/en$/);
  expect((await lateAnswer).status()).toBe(401);
  // Two frames later the page has read that answer.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await expect(toasts(page)).toContainText('You are signed out.');
  expect(new URL(page.url()).pathname).toBe('/en');
});
