import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test';
import { ACCOUNT_API } from '#common/account-api.ts';
import type { Language } from '#common/languages.ts';
import { storageEntry } from '#common/storage.ts';
import { issueFpid } from '#server/features/visitor/index.ts';
import type { CaughtMail } from '#tests/support/mail-server.ts';
import { newPerson as basePerson, codeIn as codeInText } from '#tests/support/people.ts';
import { waitForHydration } from './helpers.ts';
import { MAIL_PORT, SERVER_SECRET } from './settings.ts';

/**
 * Gives the browser the visitor identifier the visitor flow would have written (that flow is not
 * part of these tests): valid, since it is signed with the test servers' secret.
 */
export async function allowVisitor(context: BrowserContext, baseURL: string) {
  await context.addCookies([
    {
      name: storageEntry('visitorId').name,
      value: issueFpid(Buffer.from(SERVER_SECRET, 'utf8'), randomUUID()),
      url: baseURL,
      sameSite: 'Lax',
    },
  ]);
}

/** Someone new, with an address and a number no other test uses. */
export const newPerson = (name = 'Ada Lovelace') => {
  const person = basePerson(name);
  return { ...person, name };
};

/** The `index`-th mail the SMTP server received for an address, waiting for it to arrive. */
export async function mailTo(email: string, index = 0): Promise<CaughtMail> {
  let mail: CaughtMail | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`http://127.0.0.1:${MAIL_PORT}/mails?to=${encodeURIComponent(email)}`);
        mail = ((await response.json()) as CaughtMail[])[index];
        return mail !== undefined;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return mail as CaughtMail;
}

export const codeIn = (mail: CaughtMail) => codeInText(mail.text);

/**
 * An input by its accessible name. Labels of required fields end in an asterisk hidden from
 * assistive technology, so the name is what a screen reader announces, without it.
 */
export const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

/**
 * An address of its own for one visitor. The test sites trust one proxy (TRUST_PROXY=1 in
 * playwright.config.ts), so a request that names it in X-Forwarded-For comes from it, as different
 * visitors' requests do: the limits per client address (20 registrations an hour) then count one
 * test, however often the suite is repeated.
 */
export const ownAddress = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;

/**
 * Registers through the page in `language`, reading labels from its texts, and lands on validation.
 * The browser's requests come from an address of its own from here on.
 */
export async function registerThroughPage(page: Page, language: Language, person: ReturnType<typeof newPerson>) {
  await page.context().setExtraHTTPHeaders({ 'X-Forwarded-For': ownAddress() });
  const texts = JSON.parse(readFileSync(`public/locales/${language}/register.json`, 'utf8'));
  await page.goto(`/${language}/register`);
  await waitForHydration(page);
  await field(page, texts.name).fill(person.name);
  await field(page, texts.email).fill(person.email);
  await field(page, texts.phone).fill(person.phone);
  await field(page, texts.password).fill(person.password);
  await page.getByRole('checkbox', { name: texts.acceptTerms }).check();
  await page.getByRole('button', { name: texts.submit }).click();
  await expect(page).toHaveURL(new RegExp(`/${language}/validation$`));
}

/**
 * Registers through the API of `site` with the browser's cookies (so the visitor identifier goes
 * along), from an address of its own, and, unless `verify` is false, confirms with the mailed code:
 * the browser is signed in.
 */
export async function registerThroughApi(
  request: APIRequestContext,
  site: string,
  person: ReturnType<typeof newPerson>,
  verify = true,
) {
  const headers = { Origin: site, 'X-Forwarded-For': ownAddress() };
  const registered = await request.post(`${site}${ACCOUNT_API.register}`, {
    data: { ...person, acceptTerms: true },
    headers,
  });
  expect(registered.status()).toBe(201);
  if (!verify) return;
  const code = codeIn(await mailTo(person.email));
  const verified = await request.post(`${site}${ACCOUNT_API.verify}`, { data: { email: person.email, code }, headers });
  expect(verified.status()).toBe(200);
}

/** Console problems, leaving out the failed requests a test provokes on purpose (a wrong password). */
export const unexpected = (problems: string[]) =>
  problems.filter((problem) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(problem));
