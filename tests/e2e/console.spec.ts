import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { allowVisitor, mailTo, newPerson, registerThroughApi, unexpected } from './accounts.ts';
import { contactTexts, sendMessage } from './contact.ts';
import { expectAccessible, waitForHydration, watchConsole } from './helpers.ts';
import { NO_MAIL_DATA_DIR, NO_MAIL_PORT } from './settings.ts';
import { newStaff, signInToConsole, consoleTexts as t } from './staff.ts';

const toasts = (page: Page) => page.locator('.toasts__list');

test('visitors write with and without JavaScript; an operator finds both, answers one by mail and handles the other', async ({
  page,
  browser,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const marker = `m${randomBytes(4).toString('hex')}`;
  const withScript = {
    name: 'Marie Curie',
    email: `marie-${marker}@example.com`,
    message: `Bonjour, je cherche ma facture <b>${marker}</b>.`,
  };
  const withoutScript = {
    name: 'Rita Levi-Montalcini',
    email: `rita-${marker}@example.com`,
    message: `Buongiorno, una domanda sul sito (${marker}).`,
  };

  const visitor = await context.newPage();
  await visitor.goto('/fr/contact');
  await waitForHydration(visitor);
  await sendMessage(visitor, 'fr', withScript);
  await expect(toasts(visitor)).toContainText(contactTexts('fr').form.sent);

  const plain = await browser.newContext({ javaScriptEnabled: false });
  const plainPage = await plain.newPage();
  await plainPage.goto(`${baseURL}/it/contact`);
  await sendMessage(plainPage, 'it', withoutScript);
  await expect(plainPage).toHaveURL(/\/it\/contact\/sent$/);
  await plain.close();

  const operator = await newStaff(context, baseURL ?? '', 'operator');
  const problems = watchConsole(page);
  await signInToConsole(page, operator);
  await expect(page.locator('h1')).toHaveText(t.inbox.title);
  await expectAccessible(page);

  await page.getByRole('searchbox', { name: t.inbox.search }).fill(marker);
  await page.getByRole('button', { name: t.inbox.apply }).click();
  await expect(page).toHaveURL(new RegExp(`/console\\?q=${marker}$`));
  const rows = page.locator('table.inbox tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(withoutScript.name);
  await expect(rows.nth(1)).toContainText(withScript.name);
  await expectAccessible(page);

  // The message shows its text as written: the markup in it is text, never run.
  await page.getByRole('link', { name: withScript.name }).click();
  await expect(page).toHaveURL(/\/console\/messages\/[0-9a-f-]{36}$/);
  await expect(page.locator('.message__body')).toHaveText(withScript.message);
  await expect(page.locator('.message__body b')).toHaveCount(0);
  await expect(page.locator('.message__facts')).toContainText('/fr/contact');
  await expect(page.locator('.message__facts')).toContainText('Français');
  await expect(page.locator('.message__facts .status')).toHaveText(t.statuses.read);
  await expectAccessible(page);

  const answer = `Bonjour Marie, voici votre facture (${marker}).`;
  await page
    .getByRole('textbox', { name: t.message.reply.label.replace('{{name}}', withScript.name), exact: true })
    .fill(answer);
  await page.getByRole('button', { name: t.message.reply.send }).click();
  await expect(toasts(page)).toContainText(t.message.reply.queued);
  await expect(page.locator('.thread__reply')).toContainText(answer);
  await expect(page.locator('.message__facts .status')).toHaveText(t.statuses.answered);
  const mail = await mailTo(withScript.email);
  expect(mail.subject).toBe('Re: De l’aide avec le site ou mon compte – Your Company');
  expect(mail.text).toContain(answer);
  expect(mail.text).toContain(`> ${withScript.message}`);
  expect(mail.headers['content-language']).toBe('fr');
  // Once the mail server took it, the thread says so.
  await expect(async () => {
    await page.reload();
    await expect(page.locator('.delivery--sent')).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.locator('.history')).toContainText(operator.name);
  await expectAccessible(page);

  // The other message: spam after all, then deleted, with a second step to confirm.
  await page.getByRole('link', { name: t.message.back }).click();
  await page.getByRole('searchbox', { name: t.inbox.search }).fill(marker);
  await page.getByRole('button', { name: t.inbox.apply }).click();
  await page.getByRole('link', { name: withoutScript.name }).click();
  await expect(page.locator('.message__body')).toHaveText(withoutScript.message);
  await page.getByRole('button', { name: t.message.markSpam }).click();
  await expect(page.locator('.message__facts .status')).toHaveText(t.statuses.spam);
  await expect(page.getByText(t.message.reply.spamNote)).toBeVisible();
  await page.getByRole('button', { name: t.message.delete, exact: true }).click();
  await expect(page.getByRole('button', { name: t.message.confirm })).toBeFocused();
  await expectAccessible(page);
  await page.getByRole('button', { name: t.message.confirm }).click();
  await expect(page).toHaveURL(/\/console$/);
  await expect(toasts(page)).toContainText(t.message.deleted);
  await page.getByRole('searchbox', { name: t.inbox.search }).fill(marker);
  await page.getByRole('combobox', { name: t.inbox.status }).selectOption('all');
  await page.getByRole('button', { name: t.inbox.apply }).click();
  await expect(page.locator('table.inbox tbody tr')).toHaveCount(1);
  expect(unexpected(problems)).toEqual([]);
});

test('the console speaks the staff member’s language, and the inbox says when nothing matches', async ({
  page,
  context,
  baseURL,
}) => {
  const operator = await newStaff(context, baseURL ?? '', 'operator');
  await signInToConsole(page, operator);
  await page.getByRole('banner').getByRole('combobox').selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('navigation')).toContainText('Posteingang');
  await page.getByRole('searchbox', { name: 'Suchen' }).fill(`nothing-${randomBytes(4).toString('hex')}`);
  await page.getByRole('button', { name: 'Anzeigen' }).click();
  await expect(page.getByRole('status')).toHaveText('Keine Nachricht entspricht diesen Filtern.');
  await expectAccessible(page);
  await page.getByRole('banner').getByRole('combobox').selectOption('th');
  await expect(page.locator('h1')).toHaveText('กล่องข้อความ');
  await expectAccessible(page);
});

test('an admin adds, changes and removes staff; the invitation arrives by mail', async ({ page, context, baseURL }) => {
  test.setTimeout(60_000);
  const admin = await newStaff(context, baseURL ?? '', 'admin', 'Ada Admin');
  const colleague = await newStaff(context, baseURL ?? '', 'operator', 'Carl Colleague');
  await signInToConsole(page, admin, '/console/staff');
  await expect(page.locator('h1')).toHaveText(t.staff.title);
  await expectAccessible(page);

  const invitee = newPerson('Nora Newcomer');
  await page.getByRole('textbox', { name: t.staff.add.email, exact: true }).fill(invitee.email);
  await page.getByRole('textbox', { name: t.staff.add.name, exact: true }).fill(invitee.name);
  await page.getByRole('button', { name: t.staff.add.submit, exact: true }).click();
  await expect(toasts(page)).toContainText(t.staff.add.invitationQueued.replace('{{email}}', invitee.email));
  await expect(page.getByRole('row').filter({ hasText: invitee.email })).toContainText(t.staff.pending);
  // Once the mail server took it, the list says so by itself.
  await expect(page.getByRole('row').filter({ hasText: invitee.email })).toContainText(t.staff.invitation.sent, {
    timeout: 15_000,
  });
  const invitation = await mailTo(invitee.email);
  expect(invitation.subject).toBe('Your access to the Your Company console');
  expect(invitation.text).toContain(`${admin.name} has added you to the Your Company team as operator.`);

  const row = page.getByRole('row', { name: new RegExp(colleague.name) });
  // Every staff role is offered, editors first, each by its name in the console's language.
  const roleNames = [t.roleNames.editor, t.roleNames.operator, t.roleNames.admin];
  await expect(row.getByRole('combobox').getByRole('option')).toHaveText(roleNames);
  await expect(page.getByRole('combobox', { name: t.staff.add.role, exact: true }).getByRole('option')).toHaveText([
    t.staff.add.chooseRole,
    ...roleNames,
  ]);
  await row.getByRole('combobox').selectOption('admin');
  await row.getByRole('button', { name: `${t.staff.save} – ${colleague.name}` }).click();
  await expect(toasts(page)).toContainText(
    t.staff.changed.replace('{{name}}', colleague.name).replace('{{role}}', t.roleNames.admin),
  );
  await page
    .getByRole('row', { name: new RegExp(colleague.name) })
    .getByRole('button', { name: `${t.staff.remove} – ${colleague.name}` })
    .click();
  await expect(page.getByRole('row', { name: new RegExp(colleague.name) })).toHaveCount(0);
  await expect(page.getByRole('row', { name: new RegExp(admin.name) })).toContainText(t.staff.ownRole);
  await expectAccessible(page);
});

test('a member is told the console is not for them, and a signed-out visitor is sent to sign in', async ({
  page,
  context,
  baseURL,
}) => {
  await page.goto('/console/messages/00000000-0000-4000-8000-000000000000');
  await expect(page).toHaveURL(/\/en\/login\?next=%2Fconsole%2Fmessages%2F00000000-0000-4000-8000-000000000000$/);

  await allowVisitor(context, baseURL ?? '');
  await registerThroughApi(page.request, baseURL ?? '', newPerson());
  await page.goto('/console');
  await expect(page.locator('h1')).toHaveText(t.noAccess.title);
  await expect(page.getByText(t.noAccess.text)).toBeVisible();
  await expectAccessible(page);
});

test('the console’s page is never indexed, and no public page loads any of its code', async ({ page, request }) => {
  const shell = await request.get('/console');
  expect(shell.status()).toBe(200);
  expect(shell.headers()['x-robots-tag']).toBe('noindex, nofollow');
  expect(shell.headers()['cross-origin-opener-policy']).toBe('same-origin');
  expect(await shell.text()).toContain('<meta name="robots" content="noindex, nofollow">');
  expect(await (await request.get('/sitemap.xml')).text()).not.toContain('/console');

  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script' || r.url().endsWith('.js')) scripts.push(r.url());
  });
  for (const path of ['/en', '/fr/contact', '/it/login']) {
    await page.goto(path);
    await waitForHydration(page);
  }
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((url) => url.includes('/assets/console-'))).toEqual([]);
});

test.describe('a site without a mail server', () => {
  test.use({ baseURL: `http://localhost:${NO_MAIL_PORT}` });
  const server = { port: NO_MAIL_PORT, dataDir: NO_MAIL_DATA_DIR };

  test('the console says that mail is kept and not sent, for answers and invitations', async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const marker = `k${randomBytes(4).toString('hex')}`;
    const visitor = { name: 'Kept Kim', email: `kim-${marker}@example.com`, message: `Where is my order ${marker}?` };
    const contactPage = await context.newPage();
    await contactPage.goto('/en/contact');
    await waitForHydration(contactPage);
    await sendMessage(contactPage, 'en', visitor);
    await expect(toasts(contactPage)).toContainText(contactTexts('en').form.sent);
    await contactPage.close();

    const admin = await newStaff(context, baseURL ?? '', 'admin', 'Kai Admin', { server });
    const problems = watchConsole(page);
    await signInToConsole(page, admin);
    await page.getByRole('searchbox', { name: t.inbox.search }).fill(marker);
    await page.getByRole('button', { name: t.inbox.apply }).click();
    // The list follows the search once it is applied; until then it may show earlier messages of the same name.
    await expect(page).toHaveURL(new RegExp(marker));
    await expect(page.getByRole('link', { name: visitor.name })).toHaveCount(1);
    await page.getByRole('link', { name: visitor.name }).click();
    const note = page.locator('.mail-kept');
    await expect(note).toContainText(t.mailKept.title);
    await expect(note).toContainText('mail_outbox');
    await expectAccessible(page);

    await page
      .getByRole('textbox', { name: t.message.reply.label.replace('{{name}}', visitor.name), exact: true })
      .fill(`Hello Kim (${marker}).`);
    await page.getByRole('button', { name: t.message.reply.send }).click();
    await expect(toasts(page)).toContainText(t.message.reply.kept);
    // The job puts it in the outbox, and the thread says so without a reload: kept, never "sent".
    await expect(page.locator('.thread__reply .delivery--kept')).toHaveText(t.message.delivery.kept, {
      timeout: 15_000,
    });
    await expect(page.locator('.delivery--sent')).toHaveCount(0);
    await expectAccessible(page);

    await page.getByRole('navigation').getByRole('link', { name: t.nav.staff }).click();
    await expect(page.locator('h1')).toHaveText(t.staff.title);
    await expect(note).toContainText(t.mailKept.title);
    const invitee = newPerson('Nils Newcomer');
    await page.getByRole('textbox', { name: t.staff.add.email, exact: true }).fill(invitee.email);
    await page.getByRole('button', { name: t.staff.add.submit, exact: true }).click();
    await expect(toasts(page)).toContainText(t.staff.add.invitationKept.replace('{{email}}', invitee.email));
    await expect(page.getByRole('row').filter({ hasText: invitee.email })).toContainText(t.staff.invitation.kept, {
      timeout: 15_000,
    });
    await expectAccessible(page);
    expect(unexpected(problems)).toEqual([]);
  });
});
