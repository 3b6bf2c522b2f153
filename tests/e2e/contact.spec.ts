import { expect, test } from '@playwright/test';
import type { CaughtMail } from '#tests/support/mail-server.ts';
import { field, unexpected } from './accounts.ts';
import { contactTexts, expectTeamNotice, newVisitor, sendMessage } from './contact.ts';
import { expectAccessible, waitForHydration, watchConsole } from './helpers.ts';
import { MAIL_PORT } from './settings.ts';

/** Where the site announces messages when CONTACT_EMAIL is not set: hello@ the brand's domain. */
const TEAM = 'hello@localhost';
const teamMails = async () =>
  (await (await fetch(`http://127.0.0.1:${MAIL_PORT}/mails?to=${encodeURIComponent(TEAM)}`)).json()) as CaughtMail[];

test('a visitor sends a message with JavaScript: a toast confirms it and the team is told once', async ({ page }) => {
  const problems = watchConsole(page);
  const visitor = newVisitor('Ada Byron');
  await page.goto('/en/contact');
  await waitForHydration(page);
  await sendMessage(page, 'en', visitor);
  await expect(page.locator('.toasts__list')).toContainText(contactTexts('en').form.sent);
  // The form is empty again, and says nothing about its empty fields.
  await expect(field(page, contactTexts('en').form.name)).toHaveValue('');
  await expect(page.locator('.field__error')).toHaveCount(0);
  await expectTeamNotice(teamMails, visitor);
  const notice = (await teamMails()).find((mail) => mail.subject.includes(visitor.name));
  expect(notice?.text).toContain(visitor.message);
  expect(notice?.headers['reply-to']).toBe(visitor.email);
  expect(unexpected(problems)).toEqual([]);
});

test('the form checks its fields as the visitor goes, in their language, and stays accessible', async ({ page }) => {
  const t = contactTexts('fr');
  const errors = JSON.parse((await import('node:fs')).readFileSync('public/locales/fr/errors.json', 'utf8'));
  await page.goto('/fr/contact');
  await waitForHydration(page);
  await page.getByRole('button', { name: t.form.submit }).click();
  await expect(page.locator('.field__error')).toHaveCount(4);
  await expect(field(page, t.form.name)).toBeFocused();
  await field(page, t.form.message).fill('Court');
  await field(page, t.form.message).blur();
  await expect(page.getByText(errors.MESSAGE_TOO_SHORT)).toBeVisible();
  await expectAccessible(page);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a visitor sends a message by a plain form post and lands on the confirmation page', async ({ page }) => {
    const visitor = newVisitor('Grace Murray');
    await page.goto('/it/contact');
    await sendMessage(page, 'it', visitor);
    await expect(page).toHaveURL(/\/it\/contact\/sent$/);
    await expect(page.locator('h1')).toHaveText(contactTexts('it').sent.title);
    await expect(page.locator('html')).toHaveAttribute('lang', 'it');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expectTeamNotice(teamMails, visitor);
  });

  test('the browser itself refuses an incomplete form', async ({ page }) => {
    const t = contactTexts('de');
    await page.goto('/de/contact');
    await field(page, t.form.name).fill('Konrad Zuse');
    await page.getByRole('button', { name: t.form.submit }).click();
    await expect(page).toHaveURL(/\/de\/contact$/);
    expect(await field(page, t.form.email).evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
  });
});
