import { readFile } from 'node:fs/promises';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { ACCOUNT_API } from '#common/account-api.ts';
import { allowVisitor, codeIn, field, mailTo, newPerson, ownAddress, registerThroughApi } from './accounts.ts';
import { expectAccessible, waitForHydration } from './helpers.ts';

/** A browser of its own, signed in to the account through the API (as a second device would be). */
async function signedInElsewhere(context: BrowserContext, site: string, person: ReturnType<typeof newPerson>) {
  await allowVisitor(context, site);
  const answer = await context.request.post(`${site}${ACCOUNT_API.login}`, {
    data: { email: person.email, password: person.password },
    headers: { Origin: site, 'X-Forwarded-For': ownAddress() },
  });
  expect(answer.status()).toBe(200);
}

async function openAccount(page: Page) {
  await page.goto('/en/account');
  await waitForHydration(page);
  await expect(page.getByRole('heading', { level: 3, name: 'Where you are signed in' })).toBeVisible();
  await expect(page.getByText('(this browser)')).toBeVisible();
}

const sessionRows = (page: Page) => page.getByRole('list', { name: 'Where you are signed in' }).getByRole('listitem');

test('a member sees where the account is signed in, signs one browser out, and a new password signs out the rest', async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const site = baseURL ?? '';
  const person = newPerson();
  await allowVisitor(context, site);
  await registerThroughApi(context.request, site, person);
  const laptop = await browser.newContext();
  const phone = await browser.newContext();
  await signedInElsewhere(laptop, site, person);
  await signedInElsewhere(phone, site, person);

  await openAccount(page);
  await expect(sessionRows(page)).toHaveCount(3);
  await expect(sessionRows(page).first()).toContainText('Signed in on');
  await expect(sessionRows(page).first()).toContainText('with code sent by email');
  await expectAccessible(page);

  // One other browser signed out from its row: the list's heading takes the focus from the vanished button.
  await sessionRows(page)
    .nth(1)
    .getByRole('button', { name: /^Sign out / })
    .click();
  await expect(page.getByText('That session has been signed out.')).toBeVisible();
  await expect(sessionRows(page)).toHaveCount(2);
  await expect(page.getByRole('heading', { level: 3, name: 'Where you are signed in' })).toBeFocused();
  await expectAccessible(page);

  // A new password, with the current one: the last other browser is signed out, and the owner told.
  await page.locator('#change-password-currentPassword').fill(person.password);
  await page.locator('#change-password-newPassword').fill('a brand new passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(
    page.getByText('Your password has been changed, and 1 other session has been signed out.'),
  ).toBeVisible();
  await expect(sessionRows(page)).toHaveCount(1);
  await expect(page.getByText('You are not signed in anywhere else.')).toBeVisible();
  await expectAccessible(page);
  expect((await mailTo(person.email, 1)).subject).toBe('The password of your Your Company account was changed');

  for (const other of [laptop, phone]) {
    const otherPage = await other.newPage();
    await otherPage.goto('/en/account');
    await waitForHydration(otherPage);
    await expect(otherPage.locator('#login-password')).toBeVisible();
    await other.close();
  }
  // This browser stays in.
  await page.reload();
  await waitForHydration(page);
  await expect(sessionRows(page)).toHaveCount(1);
});

test('a wrong current password is said under its field', async ({ page, context, baseURL }) => {
  test.setTimeout(60_000);
  const person = newPerson();
  await allowVisitor(context, baseURL ?? '');
  await registerThroughApi(context.request, baseURL ?? '', person);
  await openAccount(page);
  await page.locator('#change-password-currentPassword').fill('not my password');
  await page.locator('#change-password-newPassword').fill('a brand new passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.locator('#change-password-currentPassword-error')).toBeVisible();
  await expect(page.locator('#change-password-currentPassword')).toBeFocused();
  await expectAccessible(page);
});

test('a member changes the email address with the code mailed to it, and the old address undoes it', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const person = newPerson();
  const newEmail = newPerson().email;
  await allowVisitor(context, baseURL ?? '');
  await registerThroughApi(context.request, baseURL ?? '', person);
  await openAccount(page);

  await field(page, 'New email address').fill(newEmail);
  await page.locator('#change-email-password').fill(person.password);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(`We have sent a code to ${newEmail}.`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Change your email address' })).toBeFocused();
  await expectAccessible(page);

  // A wrong code first, then the one from the mail.
  const code = codeIn(await mailTo(newEmail));
  await field(page, 'Code from the email').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Confirm new address' }).click();
  await expect(page.locator('#confirm-email-code-error')).toBeVisible();
  await expectAccessible(page);
  await field(page, 'Code from the email').fill(code);
  await page.getByRole('button', { name: 'Confirm new address' }).click();
  await expect(page.getByText(`Your email address is now ${newEmail}.`)).toBeVisible();
  await expect(page.locator('.account__details')).toContainText(newEmail);
  await expectAccessible(page);

  // The old address is told, with a link that puts it back.
  const notice = await mailTo(person.email, 1);
  expect(notice.text).toContain(newEmail);
  const link = /http\S+undo-email-change#token=[\w-]+/.exec(notice.text)?.[0] ?? '';
  const url = new URL(link);
  await page.goto(`${url.pathname}${url.hash}`);
  await waitForHydration(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Undo the change of email address' })).toBeVisible();
  await expect(page).toHaveURL(/undo-email-change$/);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Put my old address back' }).click();
  await expect(page.getByText('Your old email address is back')).toBeFocused();
  await expectAccessible(page);

  // Signed out everywhere; the old address signs in again.
  await page.goto('/en/account');
  await waitForHydration(page);
  await expect(page.locator('#login-password')).toBeVisible();
  const back = await context.request.post(`${baseURL}${ACCOUNT_API.login}`, {
    data: { email: person.email, password: person.password },
    headers: { Origin: baseURL ?? '', 'X-Forwarded-For': ownAddress() },
  });
  expect(back.status()).toBe(200);

  // The same link again, and a page opened without one, say why nothing happens.
  await page.goto(`${url.pathname}${url.hash}`);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Put my old address back' }).click();
  await expect(page.getByText('This link no longer works')).toBeVisible();
  await page.goto(url.pathname);
  await waitForHydration(page);
  await expect(page.getByText('This page needs the link from the email')).toBeVisible();
  await expectAccessible(page);
});

test('a member downloads the account’s data as JSON and as a page, and reads them back', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const person = newPerson();
  await allowVisitor(context, baseURL ?? '');
  await registerThroughApi(context.request, baseURL ?? '', person);
  await openAccount(page);
  await expect(page.getByText('You can download a copy up to 5 times a day.')).toBeVisible();

  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download my data' }).click(),
  ]);
  expect(json.suggestedFilename()).toMatch(/^localhost-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await readFile((await json.path()) ?? '', 'utf8'));
  expect(data.profile).toMatchObject({ name: person.name, email: person.email, phone: expect.any(String) });
  expect(data.sessions).toHaveLength(1);
  expect(data.sessions[0].browser).toMatch(/^Chrome, /);
  expect(JSON.stringify(data)).not.toMatch(/hash|secret/i);
  await expect(page.getByText('Your data is ready.')).toBeVisible();
  await expectAccessible(page);

  const [html] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download as a page to read (HTML)' }).click(),
  ]);
  expect(html.suggestedFilename()).toMatch(/\.html$/);
  const text = await readFile((await html.path()) ?? '', 'utf8');
  expect(text).toContain('<html lang="en">');
  expect(text).toContain(person.email);

  // The page itself reads as a page: open it and check it as any other.
  const reader = await context.newPage();
  await reader.setContent(text);
  await expect(reader.getByRole('heading', { level: 1, name: 'Your data at Your Company' })).toBeVisible();
  await expectAccessible(reader);
  await reader.close();
});
