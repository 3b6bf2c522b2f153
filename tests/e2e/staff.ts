import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { ACCOUNT_API, type TotpStartAnswer } from '#common/account-api.ts';
import type { StaffRole } from '#common/roles.ts';
import { allowVisitor } from './accounts.ts';
import { waitForHydration } from './helpers.ts';
import { freshCode } from './second-factor.ts';
import { PORT, SERVER_SECRET } from './settings.ts';

/** The console's texts in English, to find things by what people see. */
export const consoleTexts = JSON.parse(
  readFileSync('public/locales/en/console.json', 'utf8'),
) as typeof import('#locales/en/console.json');

/**
 * A new staff member made the way an operator of the site would: `npm run staff -- add`, which asks
 * the running test server, and the one-time link it prints, to set the password through the page.
 * Unless `secondFactor` is false, an authenticator app is then set up through the API (the console
 * asks staff for one; second-factor.spec.ts takes the way through the pages), and its secret returned.
 */
export async function newStaff(
  context: BrowserContext,
  baseURL: string,
  role: StaffRole,
  name = 'Olive Operator',
  {
    secondFactor = true,
    server = { port: PORT, dataDir: 'test-results/data' },
  }: { secondFactor?: boolean; server?: { port: number; dataDir: string } } = {},
) {
  // The command starts a Node process and the staff member's setup takes several calls: on a busy
  // machine that is seconds the test itself did not ask for.
  test.setTimeout(test.info().timeout + 20_000);
  const tag = randomBytes(4).toString('hex');
  const person = { name: `${name} ${tag}`, email: `staff-${tag}@example.com`, password: `staff password ${tag}` };
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['scripts/bin/staff.ts', 'add', person.email, '--role', role, '--name', person.name],
    {
      env: { ...process.env, PORT: String(server.port), HOST: '127.0.0.1', DATA_DIR: server.dataDir, SERVER_SECRET },
    },
  );
  const link = /https?:\/\/\S+#(\S+)/.exec(stdout)?.[1];
  if (!link) throw new Error(`No link in:\n${stdout}`);
  await allowVisitor(context, baseURL);
  const page = await context.newPage();
  await page.goto(`/en/forgot-password#${link}`);
  await waitForHydration(page);
  await page.locator('#forgot-password').fill(person.password);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/en\/login$/);
  await page.close();
  if (!secondFactor) return { ...person, totpSecret: null };
  const headers = { Origin: baseURL };
  const call = async (path: string, data: unknown) => {
    const response = await context.request.post(`${baseURL}${path}`, { data, headers });
    expect(response.ok(), `${path} answered ${response.status()}`).toBe(true);
    return response.json();
  };
  await call(ACCOUNT_API.login, { email: person.email, password: person.password });
  const { secret } = (await call(ACCOUNT_API.totpStart, {})) as TotpStartAnswer;
  await call(ACCOUNT_API.totpConfirm, { code: await freshCode(secret), password: person.password });
  await call(ACCOUNT_API.logout, {});
  return { ...person, totpSecret: secret };
}

/**
 * Opens the console signed out, is sent to sign in, signs in (with a code from the app at the
 * second step) and comes back to the console.
 */
export async function signInToConsole(
  page: Page,
  person: { email: string; password: string; totpSecret: string | null },
  path = '/console',
) {
  await page.goto(path);
  await expect(page).toHaveURL(/\/en\/login\?next=/);
  await waitForHydration(page);
  await page.locator('#login-email').fill(person.email);
  await page.locator('#login-password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  if (person.totpSecret) {
    await page.locator('#second-step-code').fill(await freshCode(person.totpSecret));
    await page.getByRole('button', { name: 'Verify' }).click();
  }
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[/?]/g, '\\$&')}$`));
  await expect(page.locator('h1')).toBeVisible();
}
