import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import type { Language } from '#common/languages.ts';
import { field } from './accounts.ts';

/** The contact page's texts in a language, to find fields by the labels people see. */
export const contactTexts = (language: Language) =>
  JSON.parse(
    readFileSync(`public/locales/${language}/contact.json`, 'utf8'),
  ) as typeof import('#locales/en/contact.json');

/** Someone writing to the team: a name and an address no other test uses, and what they write. */
export function newVisitor(name = 'Grace Hopper') {
  const tag = randomBytes(4).toString('hex');
  return {
    name: `${name} ${tag}`,
    email: `visitor-${tag}@example.com`,
    message: `Hello! I would like to know more about your work (${tag}).`,
  };
}

/** Fills in the contact form of the page that is open, in its language, and sends it. */
export async function sendMessage(page: Page, language: Language, visitor: ReturnType<typeof newVisitor>) {
  const t = contactTexts(language);
  await field(page, t.form.name).fill(visitor.name);
  await field(page, t.form.email).fill(visitor.email);
  await page.getByRole('combobox', { name: t.form.subject, exact: true }).selectOption('support');
  await field(page, t.form.message).fill(visitor.message);
  await page.getByRole('button', { name: t.form.submit }).click();
}

/** Waits for the team's notice of a visitor's message at the SMTP test server. */
export async function expectTeamNotice(mails: () => Promise<{ subject: string }[]>, visitor: { name: string }) {
  await expect
    .poll(async () => (await mails()).filter((mail) => mail.subject.includes(visitor.name)).length, {
      timeout: 15_000,
    })
    .toBe(1);
}
