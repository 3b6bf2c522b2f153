import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ACCOUNT_API } from '#common/account-api.ts';
import { allowVisitor, field, newPerson, ownAddress, registerThroughApi } from './accounts.ts';
import { expectAccessible, waitForHydration, watchConsole } from './helpers.ts';

/** Each sign-in form: its page, its submit button, and valid values for its fields by label. */
const FORMS = [
  {
    path: '/en/login',
    submit: 'Sign in',
    fields: { 'Email address': 'ada@example.com', Password: 'any password' },
  },
  {
    path: '/en/register',
    submit: 'Create account',
    fields: {
      'Full name': 'Ada Lovelace',
      'Email address': 'ada@example.com',
      'Phone number': '+44 20 7946 0958',
      Password: 'correct horse',
    },
  },
  { path: '/en/validation', submit: 'Confirm', fields: { 'Email address': 'ada@example.com', Code: '123 456' } },
  { path: '/en/forgot-password', submit: 'Send code', fields: { 'Email address': 'ada@example.com' } },
] as const;

for (const form of FORMS) {
  test(`${form.path}: empty, with errors and filled in, accessible in every state`, async ({ page }) => {
    const problems = watchConsole(page);
    await page.goto(form.path);
    await waitForHydration(page);
    await expect(page.locator('.field__error')).toHaveCount(0);
    await expect(page.locator('.field__required').first()).toHaveText('*');
    await expectAccessible(page);

    // Sending the empty form shows every field's message and moves focus to the first.
    await page.getByRole('button', { name: form.submit, exact: true }).click();
    const labels = Object.keys(form.fields);
    await expect(field(page, labels[0] ?? '')).toBeFocused();
    await expect(page.locator('.field__error')).toHaveCount(labels.length + (form.path === '/en/register' ? 1 : 0));
    await expect(field(page, labels[0] ?? '')).toHaveAttribute('aria-invalid', 'true');
    const describedBy = (await field(page, labels[0] ?? '').getAttribute('aria-describedby')) ?? '';
    await expect(page.locator(`[id="${describedBy.split(' ').pop()}"]`)).toHaveText('This field is required.');
    await expectAccessible(page);

    // Valid values clear the messages and earn the tick once each field is left.
    for (const [label, value] of Object.entries(form.fields)) {
      await field(page, label).fill(value);
      await field(page, label).blur();
    }
    if (form.path === '/en/register') await page.getByRole('checkbox').check();
    await expect(page.locator('.field__error')).toHaveCount(0);
    await expect(page.locator('.field--valid')).toHaveCount(labels.length);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
}

for (const [path, label] of [
  ['/en/login', 'Email address'],
  ['/en/contact', 'Your email address'],
] as const) {
  test(`${path} fetches its field rules when a field is entered, not while it loads`, async ({ page }) => {
    const rules: string[] = [];
    page.on('request', (request) => {
      // The page's own rules: account-schemas on the account pages, contact-schemas on contact.
      if (/\/assets\/(account|contact)-schemas-[\w-]+\.js$/.test(request.url())) rules.push(request.url());
    });
    await page.goto(path);
    await waitForHydration(page);
    await page.waitForLoadState('networkidle');
    expect(rules).toEqual([]);

    await field(page, label).focus();
    await expect.poll(() => rules.length).toBe(1);
    await field(page, label).fill('not an address');
    await field(page, label).blur();
    await expect(field(page, label)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('.field__error')).toHaveCount(1);
  });
}

test('a field says what is wrong only once it was left, and the tick only when it is right', async ({ page }) => {
  await page.goto('/nl/register');
  await waitForHydration(page);
  const email = field(page, 'E-mailadres');
  await email.fill('niet-goed');
  await expect(page.locator('.field__error')).toHaveCount(0);
  await email.blur();
  await expect(page.locator('.field__error')).toHaveText('Vul een geldig e-mailadres in.');
  await email.fill('goed@example.nl');
  await expect(page.locator('.field__error')).toHaveCount(0);
  await expect(page.locator('.field--valid')).toHaveCount(1);
});

test('the password field: show and hide, strength, and copy, paste and select kept to itself', async ({ page }) => {
  await page.goto('/en/register');
  await waitForHydration(page);
  const password = field(page, 'Password');
  const strength = page.locator('.field__strength');
  await expect(strength).toHaveText('');
  await password.fill('short');
  await expect(strength).toHaveText('Password strength: Weak');
  await password.fill('long enough');
  await expect(strength).toHaveText('Password strength: Strong');
  await password.fill('');
  await expect(strength).toHaveText('');

  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(password).toHaveAttribute('type', 'password');

  const heard = await password.evaluate((input) => {
    const events: string[] = [];
    for (const type of ['copy', 'paste', 'select', 'cut']) document.addEventListener(type, () => events.push(type));
    for (const type of ['copy', 'paste', 'cut']) input.dispatchEvent(new ClipboardEvent(type, { bubbles: true }));
    input.dispatchEvent(new Event('select', { bubbles: true }));
    // A field without that rule lets them through, so the listeners do work.
    const other = document.getElementById('register-email');
    other?.dispatchEvent(new ClipboardEvent('copy', { bubbles: true }));
    return events;
  });
  expect(heard).toEqual(['copy']);
});

test('a taken address is shown under the email field', async ({ page, context, baseURL }) => {
  await allowVisitor(context, baseURL ?? '');
  const person = newPerson();
  await registerThroughApi(page.request, baseURL ?? '', person, false);
  await page.goto('/en/register');
  await waitForHydration(page);
  await field(page, 'Full name').fill('Someone Else');
  await field(page, 'Email address').fill(person.email.toUpperCase());
  await field(page, 'Phone number').fill(newPerson().phone);
  await field(page, 'Password').fill('another password');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  const message = page.locator('.field__error');
  await expect(message).toContainText('An account with this email address already exists. Sign in to it, or reset');
  await expect(field(page, 'Email address')).toBeFocused();
  await expectAccessible(page);

  // Its links lead on with the address as typed already filled in.
  await message.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/en\/login$/);
  await expect(field(page, 'Email address')).toHaveValue(person.email.toUpperCase());
  await page.goBack();
  await expect(page).toHaveURL(/\/en\/register$/);
  // The history entry keeps what the link carried: forward again, the address is there again.
  await page.goForward();
  await expect(page).toHaveURL(/\/en\/login$/);
  await expect(field(page, 'Email address')).toHaveValue(person.email.toUpperCase());
});

test('wrong credentials offer a password reset, under the password', async ({ page, context, baseURL }) => {
  await allowVisitor(context, baseURL ?? '');
  await page.goto('/de/login');
  await waitForHydration(page);
  await field(page, 'E-Mail-Adresse').fill(newPerson().email);
  await field(page, 'Passwort').fill('not the password');
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  const message = page.locator('.field__error');
  await expect(message).toContainText('Die E-Mail-Adresse oder das Passwort ist nicht korrekt.');
  await message.getByRole('link', { name: 'Passwort zurücksetzen' }).click();
  await expect(page).toHaveURL(/\/de\/forgot-password$/);
});

test('toasts are announced, pause while hovered, and close alone, by hand or all at once', async ({ page }) => {
  test.setTimeout(40_000);
  await page.goto('/en/forgot-password');
  await waitForHydration(page);
  await page.route('**/api/auth/forgot-password', (route) => route.fulfill({ status: 202, json: {} }));
  await field(page, 'Email address').fill('ada@example.com');
  await page.getByRole('button', { name: 'Send code' }).click();
  const list = page.locator('.toasts__list');
  await expect(list).toHaveAttribute('aria-live', 'polite');
  await expect(page.locator('.toasts')).toHaveAttribute('aria-label', 'Notifications');
  const toast = list.locator('.toast');
  await expect(toast).toHaveCount(1);
  await expect(toast).toContainText('If an account uses this address');

  // Hovered, it outlives its five seconds; left alone, it goes.
  await toast.hover();
  await page.waitForTimeout(6_000);
  await expect(toast).toHaveCount(1);
  await page.mouse.move(0, 0);
  await expect(toast).toHaveCount(0, { timeout: 7_000 });

  // Two at once offer to close them all. Error toasts stay until closed, so a slow machine cannot
  // make one leave while the test looks at them.
  await page.unroute('**/api/auth/forgot-password');
  await page.route('**/api/auth/forgot-password', (route) =>
    route.fulfill({ status: 429, json: { error: { code: 'TOO_MANY_REQUESTS' } } }),
  );
  await page.getByRole('button', { name: 'Send a new code' }).click();
  await expect(toast).toHaveCount(1);
  await page.getByRole('button', { name: 'Send a new code' }).click();
  await expect(toast).toHaveCount(2);
  await expect(toast.first()).toContainText('Too many attempts. Please wait a few minutes and try again.');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Close all notifications' }).click();
  await expect(toast).toHaveCount(0);
});

test('too many attempts says how long to wait, from Retry-After, in the page language', async ({ page }) => {
  let wait = '754';
  await page.route('**/api/auth/forgot-password', (route) =>
    route.fulfill({ status: 429, headers: { 'Retry-After': wait }, json: { error: { code: 'TOO_MANY_REQUESTS' } } }),
  );
  await page.goto('/it/forgot-password');
  await waitForHydration(page);
  await field(page, 'Indirizzo email').fill('ada@example.com');
  await page.getByRole('button', { name: 'Invia il codice' }).click();
  const toast = page.locator('.toasts__list .toast');
  await expect(toast).toContainText('Troppi tentativi. Attendi 13 minuti e riprova.');
  wait = '1';
  await page.getByRole('button', { name: 'Invia il codice' }).click();
  await expect(toast.nth(1)).toContainText('Troppi tentativi. Attendi 1 secondo e riprova.');
});

test('an unknown error offers to write to us', async ({ page }) => {
  await page.route('**/api/auth/forgot-password', (route) => route.fulfill({ status: 418, json: {} }));
  await page.goto('/nl/forgot-password');
  await waitForHydration(page);
  await field(page, 'E-mailadres').fill('ada@example.com');
  await page.getByRole('button', { name: 'Code versturen' }).click();
  const toast = page.locator('.toasts__list .toast');
  await expect(toast).toContainText('Er ging iets mis. Probeer het opnieuw; blijft het gebeuren, schrijf ons dan.');
  await expectAccessible(page);
  await toast.getByRole('button', { name: 'Schrijf ons' }).click();
  await expect(page).toHaveURL(/\/nl\/contact$/);
});

test('a server out of reach, or answering 500, is said so in words', async ({ page }) => {
  await page.goto('/en/login');
  await waitForHydration(page);
  await field(page, 'Email address').fill('ada@example.com');
  await field(page, 'Password').fill('any password');
  await page.route('**/api/auth/login', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const list = page.locator('.toasts__list');
  await expect(list).toContainText('We could not reach the server. Please check your connection.');
  await page.unroute('**/api/auth/login');
  await page.route('**/api/auth/login', (route) => route.fulfill({ status: 500, body: 'oops' }));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(list).toContainText('Our server ran into a problem. Please try again in a moment.');
  await expect(list).not.toContainText('SERVER_ERROR');
});

test('the register form reads a number the national way in the chosen country, and refuses a common password under its field', async ({
  page,
  context,
  baseURL,
}) => {
  await allowVisitor(context, baseURL ?? '');
  await context.setExtraHTTPHeaders({ 'X-Forwarded-For': ownAddress() });
  const texts = JSON.parse(readFileSync('public/locales/th/register.json', 'utf8'));
  const errors = JSON.parse(readFileSync('public/locales/th/errors.json', 'utf8'));

  // An English page in a browser set to en-US suggests the United States, once hydrated.
  await page.goto('/en/register');
  await waitForHydration(page);
  await expect(page.getByRole('combobox', { name: 'Country of the phone number' })).toHaveValue('US');

  // A Thai page suggests Thailand, and offers every country after hydration.
  await page.goto('/th/register');
  await waitForHydration(page);
  const country = page.getByRole('combobox', { name: texts.phoneCountry });
  await expect(country).toHaveValue('TH');
  await expect(country.locator('option')).toHaveCount(245);
  const person = newPerson('สมหญิง');
  // A number of its own, so that a repeated run does not find it taken.
  const line = String(randomInt(10_000_000)).padStart(7, '0');
  await field(page, texts.name).fill(person.name);
  await field(page, texts.email).fill(person.email);
  await field(page, texts.phone).fill(`081 ${line.slice(0, 3)} ${line.slice(3)}`);
  await field(page, texts.phone).blur();
  await expect(page.locator('.field--invalid')).toHaveCount(0);
  // Another country reads the same digits again, and they are not a number of the United States.
  await country.selectOption('US');
  await expect(page.locator('.field__error')).toHaveText(errors.INVALID_PHONE);
  await country.selectOption('TH');
  await expect(page.locator('.field__error')).toHaveCount(0);

  await field(page, texts.password).fill('Password123');
  await page.getByRole('checkbox', { name: texts.acceptTerms }).check();
  await page.getByRole('button', { name: texts.submit }).click();
  await expect(page.locator('.field__error')).toHaveText(errors.PASSWORD_TOO_COMMON);
  await expect(field(page, texts.password)).toBeFocused();
  await expectAccessible(page);

  await field(page, texts.password).fill(person.password);
  await page.getByRole('button', { name: texts.submit }).click();
  await expect(page).toHaveURL(/\/th\/validation$/);
  // Kept in international form: the same number written so is taken.
  const again = await page.request.post(`${baseURL}${ACCOUNT_API.register}`, {
    data: { ...newPerson(), phone: `+66 81 ${line.slice(0, 3)} ${line.slice(3)}`, acceptTerms: true },
    headers: { Origin: baseURL ?? '', 'X-Forwarded-For': ownAddress() },
  });
  expect(await again.json()).toMatchObject({ error: { code: 'PHONE_ALREADY_EXISTS' } });
});
