import { randomBytes, randomUUID } from 'node:crypto';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { CHAT_DESK_API } from '#common/chat-desk-api.ts';
import { storageEntry } from '#common/storage.ts';
import { mailTo } from './accounts.ts';
import { countGets, expectAccessible, waitForHydration } from './helpers.ts';
import { seededStaffContext } from './seeded-staff.ts';
import { CHAT_OFFLINE_PORT, CHAT_OPERATOR, CHAT_PORT } from './settings.ts';
import { newStaff, signInToConsole } from './staff.ts';

// Several browsers, live streams and mail per test: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 150_000 });

const CHAT = `http://localhost:${CHAT_PORT}`;
const OFFLINE = `http://localhost:${CHAT_OFFLINE_PORT}`;

/**
 * Opens a new visitor's chat. Their consent prompt comes after the first paint and lifts the
 * launcher above itself: a click while the launcher moves can land beside it, so it waits until
 * the prompt has been measured.
 */
async function openChat(page: Page) {
  await page.waitForFunction(() => document.documentElement.style.scrollPaddingBottom !== '');
  await page.locator('button.chat-launcher').click();
}

/** A visitor's browser on `site` at `path` who writes `text` in the panel (German or English labels). */
async function visitorWrites(browser: Browser, site: string, path: string, text: string, german = false) {
  const context = await browser.newContext({ baseURL: site });
  const page = await context.newPage();
  await page.goto(path);
  await waitForHydration(page);
  await openChat(page);
  const panel = page.getByRole('region', { name: german ? 'Chatten Sie mit uns' : 'Chat with us' });
  const field = panel.getByRole('textbox', { name: german ? 'Ihre Nachricht' : 'Your message' });
  await field.fill(text);
  await field.press('Enter');
  await expect(panel.getByRole('log')).toContainText(text);
  return { context, page, panel };
}

/** The seeded operator's browser on a chat test site, signed in with its session. */
async function seededOperator(browser: Browser, site: string) {
  const context = await seededStaffContext(browser, site);
  return { context, page: await context.newPage() };
}

const openConversation = async (operator: Page, text: string) => {
  await operator.getByRole('button', { name: new RegExp(text.slice(-24)) }).click();
  await expect(operator.getByRole('log')).toContainText(text);
};

test('an admin keeps a saved reply per language; an operator inserts it with / in the conversation’s language, adds a note and takes the conversation', async ({
  browser,
  page,
  context,
  baseURL,
}) => {
  const admin = await newStaff(context, baseURL ?? '', 'admin', 'Ada Admin');
  const listed = countGets(page, CHAT_DESK_API.savedReplies);
  await signInToConsole(page, admin, '/console/saved-replies');
  await expect(page.locator('h1')).toHaveText('Saved replies');
  await expectAccessible(page);
  // The list is asked for once, not again at every render.
  expect(listed()).toBe(1);

  const shortcut = `greet${randomBytes(3).toString('hex')}`;
  await page.getByRole('button', { name: 'New saved reply' }).click();
  await page.getByRole('textbox', { name: 'Shortcut' }).fill(shortcut);
  await page.getByRole('textbox', { name: 'Text in English' }).fill('Hello {{name}}, how can we help?');
  await page.getByRole('textbox', { name: 'Text in Deutsch' }).fill('Hallo {{name}}, wie können wir helfen?');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Add saved reply' }).click();
  const saved = page.getByRole('listitem').filter({ has: page.getByText(`/${shortcut}`, { exact: true }) });
  await expect(saved.getByText('Languages with a text: English, Deutsch')).toBeVisible();

  const question = `Ich habe eine Frage ${randomUUID()}`;
  const visitor = await visitorWrites(browser, baseURL ?? '', '/de/about', question, true);

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Chats' }).click();
  await openConversation(page, question);
  const reply = page.getByRole('textbox', { name: 'Your reply' });
  await reply.pressSequentially(`/${shortcut.slice(0, 6)}`);
  const list = page.getByRole('listbox', { name: 'Saved replies' });
  const option = list.getByRole('option', { name: new RegExp(shortcut) });
  // In the conversation's language; the visitor's name is unknown, so it is left out.
  await expect(option).toContainText('Hallo, wie können wir helfen?');
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await expect(reply).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id')) ?? '');
  await expect(page.getByRole('status').filter({ hasText: '1 saved reply' })).toBeAttached();
  await expectAccessible(page);
  await reply.press('Enter');
  await expect(list).toHaveCount(0);
  await expect(reply).toHaveValue('Hallo, wie können wir helfen?');
  await reply.press('Enter');
  await expect(visitor.panel.getByRole('log')).toContainText('Hallo, wie können wir helfen?');

  // An internal note: marked as such in the thread, never shown to the visitor.
  await page.getByRole('checkbox', { name: 'Internal note: only the team sees it' }).check();
  await page.getByRole('textbox', { name: 'Internal note' }).fill('VIP customer, be generous');
  await page.getByRole('button', { name: 'Add note' }).click();
  const note = page.getByRole('log').getByRole('listitem').filter({ hasText: 'VIP customer' });
  await expect(note).toContainText(`Internal note · ${admin.name}`);
  await expect(note).toHaveClass(/chat-message--note/);
  await expectAccessible(page);

  // Taking it: the list's "Mine" view shows it.
  await page.getByRole('button', { name: 'Take it' }).click();
  await expect(page.getByRole('combobox', { name: 'Assigned to' })).toHaveValue(/.+/);
  // The list shows the latest message of the thread, the note here.
  const item = page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: /VIP customer/ });
  await page.getByRole('button', { name: 'Mine', exact: true }).click();
  await expect(item).toContainText(admin.name);
  await page.getByRole('button', { name: 'Unassigned', exact: true }).click();
  await expect(item).toHaveCount(0);
  await expectAccessible(page);

  // The visitor's panel, after a reload too, never carried the note.
  await visitor.page.reload();
  await waitForHydration(visitor.page);
  await openChat(visitor.page);
  await expect(visitor.page.getByRole('log')).toContainText('Hallo, wie können wir helfen?');
  await expect(visitor.page.getByText('VIP customer')).toHaveCount(0);
  await visitor.context.close();
});

test('a closed conversation is rated and its transcript arrives by mail; the console shows the rating, and finds the chat', async ({
  browser,
}) => {
  const question = `Where is my parcel ${randomUUID()}`;
  const visitor = await visitorWrites(browser, CHAT, '/en/contact', question);
  const staff = await seededOperator(browser, CHAT);
  const operator = staff.page;
  await operator.goto('/console/chat');
  await openConversation(operator, question);
  await operator.getByRole('textbox', { name: 'Your reply' }).fill('It left our warehouse today.');
  await operator.getByRole('button', { name: 'Send reply' }).click();
  await operator.getByRole('checkbox', { name: 'Internal note: only the team sees it' }).check();
  await operator.getByRole('textbox', { name: 'Internal note' }).fill('Courier is late this week');
  await operator.getByRole('button', { name: 'Add note' }).click();
  await expect(operator.getByRole('log')).toContainText('Courier is late this week');
  await operator.getByRole('button', { name: 'Close conversation' }).click();

  const panel = visitor.panel;
  const rating = panel.getByRole('group', { name: /How did we do\?/ });
  await expect(rating).toBeVisible();
  await expectAccessible(visitor.page);
  await rating.getByRole('radio', { name: '4' }).check();
  const comment = `Quick and friendly ${randomBytes(3).toString('hex')}`;
  await panel.getByRole('textbox', { name: 'Anything to add? (optional)' }).fill(comment);
  await panel.getByRole('button', { name: 'Send rating' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Thank you for your rating!' })).toBeVisible();

  const address = `transcript-${randomBytes(4).toString('hex')}@example.com`;
  await panel.getByRole('button', { name: 'Email me this conversation' }).click();
  const email = panel.getByRole('textbox', { name: 'Your email address' });
  await email.fill('not an address');
  await panel.getByRole('button', { name: 'Send it' }).click();
  await expect(panel.getByRole('alert')).toHaveText('Please enter a valid email address.');
  await expectAccessible(visitor.page);
  await email.fill(address);
  await panel.getByRole('button', { name: 'Send it' }).click();
  await expect(panel.getByText(`We are sending the conversation to ${address}.`)).toBeVisible();
  await expectAccessible(visitor.page);

  const mail = await mailTo(address);
  expect(mail.subject).toBe('Your conversation with Your Company');
  expect(mail.text).toContain(question);
  expect(mail.text).toContain('It left our warehouse today.');
  expect(mail.text).not.toContain('Courier');

  // The analytics page: this week's ratings and first replies, and the comment.
  await operator.goto('/console/analytics');
  const quality = operator.getByRole('region', { name: 'Chat: ratings and first replies' });
  await expect(quality.getByRole('table')).toBeVisible();
  await expect(quality.getByText(comment)).toBeVisible();
  await expect(quality.getByRole('row').nth(1).getByRole('cell').first()).not.toHaveText('0');
  await expectAccessible(operator);

  // One search box finds the chat by a word of it.
  await operator.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Search' }).click();
  await operator.getByRole('searchbox', { name: 'Search chats and contact messages' }).fill('parcels');
  await operator.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(operator).toHaveURL(/\/console\/search\?q=parcels$/);
  const hit = operator.getByRole('region', { name: 'Chats' }).getByRole('listitem').filter({ hasText: question });
  await expect(hit).toBeVisible();
  await expectAccessible(operator);
  await hit.getByRole('link').click();
  await expect(operator).toHaveURL(/\/console\/chat\?conversation=\d+$/);
  await expect(operator.getByRole('log')).toContainText(question);
  await Promise.all([visitor.context.close(), staff.context.close()]);
});

test('the mail of an unread reply opens that conversation in another browser', async ({ browser, playwright }) => {
  const question = `Pouvez-vous m’aider ? ${randomUUID()}`;
  const first = await browser.newContext({ baseURL: OFFLINE });
  const page = await first.newPage();
  await page.goto('/fr/contact');
  await waitForHydration(page);
  await openChat(page);
  const panel = page.getByRole('region', { name: 'Discutez avec nous' });
  await panel.getByRole('textbox', { name: 'Votre message' }).fill(question);
  await panel.getByRole('textbox', { name: 'Votre message' }).press('Enter');
  const address = `away-${randomBytes(4).toString('hex')}@example.com`;
  await panel.getByRole('textbox', { name: 'Votre adresse e-mail' }).fill(address);
  await panel.getByRole('button', { name: 'Enregistrer l’adresse' }).click();
  await expect(panel.getByText(address)).toBeVisible();
  await first.close();

  const staff = await playwright.request.newContext({
    baseURL: OFFLINE,
    extraHTTPHeaders: { Origin: OFFLINE, Cookie: `${storageEntry('session').name}=${CHAT_OPERATOR.sessionToken}` },
  });
  const list = (await (await staff.get('/api/console/chat/conversations')).json()) as {
    conversations: { id: number; lastMessage: { excerpt: string } | null }[];
  };
  const conversation = list.conversations.find((c) => c.lastMessage?.excerpt === question);
  const answer = 'Oui, bien sûr : dites-nous tout.';
  await staff.post(`/api/console/chat/conversations/${conversation?.id}/messages`, {
    data: { body: answer, clientMessageId: randomUUID() },
  });
  const mail = await mailTo(address);
  const link = /https?:\/\/\S+\/api\/chat\/resume\?\S+/.exec(mail.text)?.[0];
  expect(link).toBeDefined();
  await staff.dispose();

  // Another browser (a phone, say) opens the link: the chat opens there with the conversation.
  const phone = await browser.newContext();
  const other = await phone.newPage();
  await other.goto(link as string);
  await expect(other).toHaveURL(/\/fr#chat$/);
  const opened = other.getByRole('region', { name: 'Discutez avec nous' });
  await expect(opened.getByRole('log')).toContainText(question);
  await expect(opened.getByRole('log')).toContainText(answer);
  await expectAccessible(other);
  await phone.close();
});
