import { readFileSync } from 'node:fs';
import { type BrowserContext, expect, type Page, type Request, test } from '@playwright/test';
import { ACCOUNT_API } from '#common/account-api.ts';
import type { Language } from '#common/languages.ts';
import { issueFpid } from '#server/features/visitor/index.ts';
import { codeIn, field, mailTo, newPerson, registerThroughPage } from './accounts.ts';
import { waitForHydration } from './helpers.ts';

// Account journeys of visitors who have no visitor identifier, or not yet one (issue 8, items 1
// and 2; decision 051). None of these tests gives the browser an identifier beforehand.

const FPID = /(?:^|;\s*)_fpid=(v1\.[\w-]+\.[\w-]+)/;
const errors = (language: Language) =>
  JSON.parse(readFileSync(`public/locales/${language}/errors.json`, 'utf8')) as Record<string, string>;

function recordRequests(page: Page, path: string): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) requests.push(request);
  });
  return requests;
}

/** The operator's privacy option, for one visit: the identifier only after consent. */
async function privacyOption(page: Page) {
  await page.addInitScript(() => {
    let config: unknown;
    Object.defineProperty(window, '__SITE_CONFIG__', {
      get: () => config,
      set: (value: { privacy: object }) => {
        config = { ...value, privacy: { fingerprintAfterConsent: true } };
      },
    });
  });
}

async function consent(context: BrowserContext, baseURL: string | undefined, value: 'granted' | 'denied') {
  await context.addCookies([{ name: 'consent', value, url: baseURL ?? '', sameSite: 'Lax' }]);
}

// A form that starts the identifier itself, before the page's visitor services have, must still
// get the cookie written (it was dropped as "not wanted" until the services asked too).
test('a sign-in sent as soon as the page is there waits for the identifier, then goes through', async ({ page }) => {
  const records = recordRequests(page, '/api/fingerprint');
  const logins = recordRequests(page, ACCOUNT_API.login);
  await page.goto('/fr/login');
  await waitForHydration(page);
  // A password manager fills the form at once: the page has not started the identifier yet.
  expect(records).toHaveLength(0);
  await field(page, 'Adresse e-mail').fill('quelqu-un@example.com');
  await field(page, 'Mot de passe').fill('un mot de passe');
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click();

  await expect(page.locator('.field__error')).toContainText(errors('fr').INVALID_CREDENTIALS ?? '');
  expect(records).toHaveLength(1);
  expect(logins).toHaveLength(1);
  const answer = await (await records[0]?.response())?.json();
  expect((await logins[0]?.headerValue('cookie'))?.match(FPID)?.[1]).toBe(answer.fpid);
  await expect(page.locator('.toasts__list')).not.toContainText(errors('fr').FINGERPRINT_REQUIRED ?? '');
});

test('an identifier the server did not issue is replaced once, and the form goes through', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([
    { name: '_fpid', value: issueFpid(Buffer.alloc(32, 9), 'elsewhere'), url: baseURL ?? '', sameSite: 'Lax' },
  ]);
  const records = recordRequests(page, '/api/fingerprint');
  const logins = recordRequests(page, ACCOUNT_API.login);
  await page.goto('/de/login');
  await waitForHydration(page);
  await field(page, 'E-Mail-Adresse').fill('jemand@example.com');
  await field(page, 'Passwort').fill('ein Passwort');
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await expect(page.locator('.field__error')).toContainText(errors('de').INVALID_CREDENTIALS ?? '');
  expect(logins.map((request) => request.failure())).toEqual([null, null]);
  expect((await logins[0]?.response())?.status()).toBe(403);
  expect(records).toHaveLength(1);
  const answer = await (await records[0]?.response())?.json();
  expect((await logins[1]?.headerValue('cookie'))?.match(FPID)?.[1]).toBe(answer.fpid);
});

test('when the identifier truly cannot be checked, the message says what to do, in the page language', async ({
  page,
}) => {
  await page.route(`**${ACCOUNT_API.login}`, (route) =>
    route.fulfill({ status: 403, json: { error: { code: 'INVALID_FINGERPRINT' } } }),
  );
  await page.goto('/it/login');
  await waitForHydration(page);
  await field(page, 'Indirizzo email').fill('qualcuno@example.com');
  await field(page, 'Password').fill('una password qualsiasi');
  await page.getByRole('button', { name: 'Accedi', exact: true }).click();
  await expect(page.locator('.toasts__list')).toContainText(errors('it').INVALID_FINGERPRINT ?? '');
});

test('with the privacy option and analytics declined, every account journey works without an identifier', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await privacyOption(page);
  await consent(context, baseURL, 'denied');
  const records = recordRequests(page, '/api/fingerprint');
  const person = newPerson('Chiara Rossi');

  // Register, confirm with the mailed code: signed in.
  await registerThroughPage(page, 'en', person);
  await field(page, 'Code').fill(codeIn(await mailTo(person.email)));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/en\/account$/);

  // Sign out and in again.
  await page.locator('main').getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/en$/);
  await page.goto('/en/login');
  await waitForHydration(page);
  await field(page, 'Email address').fill(person.email);
  await field(page, 'Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/en\/account$/);

  // A forgotten password: the code by mail, a new password, then in with it.
  await page.locator('main').getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/en$/);
  await page.goto('/en/forgot-password');
  await waitForHydration(page);
  await field(page, 'Email address').fill(person.email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await field(page, 'Code from the email').fill(codeIn(await mailTo(person.email, 1)));
  await field(page, 'New password').fill('a new password 456');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/en\/login$/);
  await field(page, 'Email address').fill(person.email);
  await field(page, 'Password').fill('a new password 456');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/en\/account$/);

  // No fingerprint was taken, and no identifier is stored.
  expect(records).toEqual([]);
  expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('_fpid');
});

test('a browser that refuses cookies can register and reset its password, and is told why it cannot sign in', async ({
  page,
  context,
}) => {
  test.setTimeout(60_000);
  // What a browser blocking this site's cookies shows the page: cookies off, and writes that
  // do not stick. (The session cookie the server sets still sticks in this stand-in.)
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'cookieEnabled', { get: () => false });
    const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    Object.defineProperty(Document.prototype, 'cookie', {
      get() {
        return cookie?.get?.call(this) ?? '';
      },
      set() {},
    });
  });
  const registrations = recordRequests(page, ACCOUNT_API.register);
  const person = newPerson('Pieter de Vries');

  await registerThroughPage(page, 'nl', person);
  expect((await registrations[0]?.headerValue('cookie')) ?? '').not.toMatch(FPID);
  await field(page, 'Code').fill(codeIn(await mailTo(person.email)));
  await page.getByRole('button', { name: 'Bevestigen' }).click();
  await expect(page.locator('.toasts__list')).toContainText(errors('nl').FINGERPRINT_REQUIRED ?? '');
  await expect(page).toHaveURL(/\/nl\/validation$/);

  await page.goto('/nl/forgot-password');
  await waitForHydration(page);
  await field(page, 'E-mailadres').fill(person.email);
  await page.getByRole('button', { name: 'Code versturen' }).click();
  await field(page, 'Code uit de e-mail').fill(codeIn(await mailTo(person.email, 1)));
  await field(page, 'Nieuw wachtwoord').fill('een nieuw wachtwoord');
  await page.getByRole('button', { name: 'Nieuw wachtwoord opslaan' }).click();
  await expect(page).toHaveURL(/\/nl\/login$/);
  expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('_fpid');
});
