import { randomUUID } from 'node:crypto';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { storageEntry } from '#common/storage.ts';
import { mailTo } from './accounts.ts';
import { expectAccessible, waitForHydration, watchConsole } from './helpers.ts';
import { seededStaffContext } from './seeded-staff.ts';
import { CHAT_OFFLINE_PORT, CHAT_OPERATOR, CHAT_PORT } from './settings.ts';

// Two browsers, several pages and live streams per test: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 120_000 });

const CHAT = `http://localhost:${CHAT_PORT}`;
const OFFLINE = `http://localhost:${CHAT_OFFLINE_PORT}`;
const TOKEN_COOKIE = storageEntry('chat').name;
const ACTIVE_COOKIE = storageEntry('chatActive').name;

const launcherOf = (page: Page, name = 'Open the chat') => page.getByRole('button', { name: new RegExp(`^${name}`) });
/** The launcher whatever it says (its name changes between open and close). */
const theLauncher = (page: Page) => page.locator('button.chat-launcher');
const panelOf = (page: Page, name = 'Chat with us') => page.getByRole('region', { name });

/** Every request a page makes to the chat API, as it leaves the browser. */
function chatRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/chat')) seen.push(`${request.method()} ${url.pathname}`);
  });
  return seen;
}

const chatCookies = async (context: BrowserContext) =>
  (await context.cookies()).filter((c) => c.name === TOKEN_COOKIE || c.name === ACTIVE_COOKIE);

/** A visitor's browser on `site`, at `path`, hydrated. */
async function visit(browser: Browser, site: string, path: string) {
  const context = await browser.newContext({ baseURL: site });
  const page = await context.newPage();
  await page.goto(path);
  await waitForHydration(page);
  return { context, page };
}

/** Opens the panel and writes a message, as a visitor does with the keyboard. */
async function write(page: Page, text: string) {
  const panel = panelOf(page);
  if (!(await panel.isVisible())) await theLauncher(page).click();
  await expect(panel).toBeVisible();
  const field = panel.getByRole('textbox', { name: 'Your message' });
  await field.fill(text);
  await field.press('Enter');
  await expect(panel.getByRole('log')).toContainText(text);
  await expect(panel.getByText('Sending…')).toHaveCount(0);
}

test('the launcher comes after the first paint, in the page language, and opens and closes by keyboard alone', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: CHAT });
  const page = await context.newPage();
  const problems = watchConsole(page);
  const requests = chatRequests(page);
  const response = await page.goto('/th/about');
  expect(await response?.text()).not.toContain('chat-launcher');
  await waitForHydration(page);

  const launcher = launcherOf(page, 'เปิดหน้าต่างแชท');
  await expect(launcher).toBeVisible();
  await expect(launcher).toHaveAttribute('aria-expanded', 'false');
  await launcher.focus();
  await page.keyboard.press('Enter');
  const panel = panelOf(page, 'แชทกับเรา');
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('textbox', { name: 'ข้อความของคุณ' })).toBeFocused();
  await expect(theLauncher(page)).toHaveAttribute('aria-expanded', 'true');
  await expectAccessible(page);

  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(launcherOf(page, 'เปิดหน้าต่างแชท')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(panel).toBeVisible();
  // The panel's own close button, reached with Shift+Tab from the message field.
  const closeButton = panel.getByRole('button', { name: 'ปิดหน้าต่างแชท' });
  for (
    let stops = 0;
    stops < 5 && !(await closeButton.evaluate((button) => button === document.activeElement));
    stops++
  ) {
    await page.keyboard.press('Shift+Tab');
  }
  await expect(closeButton).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(panel).toBeHidden();
  await expect(launcherOf(page, 'เปิดหน้าต่างแชท')).toBeFocused();

  // Opening and closing is not writing: no chat cookie, and no request but the question whether
  // the team is there (which stores nothing).
  expect(requests.filter((request) => request !== 'GET /api/chat/availability')).toEqual([]);
  expect(await chatCookies(context)).toEqual([]);
  // Pages outside the shared layout have no launcher.
  await page
    .getByRole('link', { name: /เข้าสู่ระบบ/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/th\/login$/);
  await expect(page.locator('.chat-launcher')).toHaveCount(0);
  expect(problems).toEqual([]);
  await context.close();
});

test.describe('with an operator', () => {
  test('a visitor writes, the operator answers from the console, the reply shows live and stays after a reload', async ({
    browser,
  }) => {
    const { context, page } = await visit(browser, CHAT, '/en/about');
    const problems = watchConsole(page);
    const requests = chatRequests(page);
    await launcherOf(page).click();
    await expect(panelOf(page)).toBeVisible();
    expect(requests.filter((request) => request !== 'GET /api/chat/availability')).toEqual([]);
    const question = `Do you deliver to Chiang Mai? ${randomUUID()}`;
    await write(page, question);

    // The first message set the conversation's cookie: HttpOnly, Secure, SameSite=Lax.
    const cookies = await chatCookies(context);
    expect(cookies.find((c) => c.name === TOKEN_COOKIE)).toMatchObject({
      httpOnly: true,
      secure: true,
      sameSite: 'Lax',
    });
    expect(cookies.find((c) => c.name === ACTIVE_COOKIE)).toMatchObject({ value: '1', httpOnly: false });

    const staff = await seededStaffContext(browser, CHAT);
    const operator = await staff.newPage();
    const operatorProblems = watchConsole(operator);
    await operator.goto('/console/chat');
    const item = operator.getByRole('button', { name: new RegExp(question.slice(-36)) });
    await expect(item).toContainText('1 unread');
    await expect(item).toContainText('English · /en/about');
    await item.click();
    const thread = operator.getByRole('log');
    await expect(thread).toContainText(question);
    await expect(item).not.toContainText('unread');
    await expect(operator.getByText(`Online now: ${CHAT_OPERATOR.name}`)).toBeVisible();
    await expectAccessible(operator);

    // The visitor, meanwhile, was told the team is online.
    const panel = panelOf(page);
    await expect(panel.getByText('We are online and will answer shortly.')).toBeVisible();
    await expect(panel.getByText('Seen', { exact: true })).toBeVisible();

    const answer = 'Yes, we do: delivery takes two days.';
    await operator.getByRole('textbox', { name: 'Your reply' }).fill(answer);
    await operator.getByRole('button', { name: 'Send reply' }).click();

    // Without a reload, in the live log a screen reader announces.
    const log = panel.getByRole('log', { name: 'Messages' });
    await expect(log).toHaveAttribute('aria-live', 'polite');
    const reply = log.getByRole('listitem').last();
    await expect(reply.locator('.chat-message__body')).toHaveText(answer);
    // Each message shows its time beside its author.
    await expect(reply.locator('.chat-message__author')).toHaveText(/^Your Company \d{1,2}:\d{2}/);
    await expect(operator.getByText('Seen by the visitor')).toBeVisible();
    await expectAccessible(page);

    // A visitor's message reaches the console live, with its count.
    const followUp = `And on Sundays? ${randomUUID()}`;
    await write(page, followUp);
    await expect(thread).toContainText(followUp);

    // Another page of the site: the conversation is still there, the panel still open.
    await page.locator('header').getByRole('link', { name: 'Contact' }).click();
    await expect(page).toHaveURL(/\/en\/contact$/);
    await expect(log).toContainText(answer);

    // A reload: the launcher comes back and the conversation with it.
    await page.reload();
    await waitForHydration(page);
    await launcherOf(page).click();
    await expect(panelOf(page).getByRole('log')).toContainText(question);
    await expect(panelOf(page).getByRole('log')).toContainText(answer);
    await expect(panelOf(page).getByRole('log')).toContainText(followUp);

    // The operator closes it; the visitor is told, and writing again opens it.
    await operator.getByRole('button', { name: 'Close conversation' }).click();
    await expect(panelOf(page).getByText('Our team closed this conversation.', { exact: false })).toBeVisible();
    await expectAccessible(page);
    expect(problems).toEqual([]);
    expect(operatorProblems).toEqual([]);
    await staff.close();
    await context.close();
  });

  test('a message that comes while the operator opens its conversation is shown, once', async ({ browser }) => {
    const { context, page } = await visit(browser, CHAT, '/en/terms');
    const first = `Is the warranty two years? ${randomUUID()}`;
    await write(page, first);
    const staff = await seededStaffContext(browser, CHAT);
    const operator = await staff.newPage();
    await operator.goto('/console/chat');

    // The thread's answer is read by the server at once but reaches the console only after the
    // visitor's next message has come through the stream.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let answered = () => {};
    const threadRead = new Promise<void>((resolve) => {
      answered = resolve;
    });
    await operator.route(/\/api\/console\/chat\/conversations\/\d+$/, async (route) => {
      const response = await route.fetch();
      answered();
      await released;
      await route.fulfill({ response });
    });
    const item = operator.getByRole('button', { name: new RegExp(first.slice(-36)) });
    await item.click();
    await threadRead;
    const second = `Also for batteries? ${randomUUID()}`;
    await write(page, second);
    // The list's excerpt comes with the conversation's event, after the message's own.
    await expect(operator.getByRole('button', { name: new RegExp(second.slice(-36)) })).toBeVisible();
    release();

    const thread = operator.getByRole('log');
    await expect(thread).toContainText(first);
    await expect(thread).toContainText(second);
    await expect(thread.getByText(second)).toHaveCount(1);
    await staff.close();
    await context.close();
  });

  test('a blocked visitor is told they can no longer write', async ({ browser }) => {
    const { context, page } = await visit(browser, CHAT, '/en');
    const text = `Buy cheap watches ${randomUUID()}`;
    await write(page, text);
    const staff = await seededStaffContext(browser, CHAT);
    const operator = await staff.newPage();
    await operator.goto('/console/chat');
    await operator.getByRole('button', { name: new RegExp(text.slice(-36)) }).click();
    await operator.getByRole('button', { name: 'Block visitor' }).click();
    // Blocking asks first.
    await operator
      .getByRole('group', { name: /^Block this visitor\?/ })
      .getByRole('button', { name: 'Yes, block' })
      .click();
    await expect(operator.getByRole('button', { name: 'Unblock visitor' })).toBeVisible();
    await expect(panelOf(page).getByText('You can no longer write in this chat.')).toBeVisible();
    await expect(panelOf(page).getByRole('textbox', { name: 'Your message' })).toHaveCount(0);
    await expectAccessible(page);
    await expectAccessible(operator);
    // A block covers the visitor's address, which every test shares: lifting it lets them write again.
    await operator.getByRole('button', { name: 'Unblock visitor' }).click();
    await expect(operator.getByRole('button', { name: 'Block visitor' })).toBeVisible();
    await expect(panelOf(page).getByRole('textbox', { name: 'Your message' })).toBeVisible();
    await staff.close();
    await context.close();
  });
});

test('with nobody online, the widget says when the team answers and asks for an address; an unread reply is mailed', async ({
  browser,
  playwright,
}) => {
  const { context, page } = await visit(browser, OFFLINE, '/fr/about');
  await launcherOf(page, 'Ouvrir la discussion').click();
  const panel = panelOf(page, 'Discutez avec nous');
  const question = `Livrez-vous à Lyon ? ${randomUUID()}`;
  const field = panel.getByRole('textbox', { name: 'Votre message' });
  await field.fill(question);
  await field.press('Enter');
  await expect(panel.getByText(/Personne de notre équipe n’est en ligne pour le moment/)).toBeVisible();
  await expectAccessible(page);

  const address = `visiteur-${randomUUID()}@example.com`;
  const email = panel.getByRole('textbox', { name: 'Votre adresse e-mail' });
  await email.fill('pas une adresse');
  await panel.getByRole('button', { name: 'Enregistrer l’adresse' }).click();
  await expect(panel.getByRole('alert')).toHaveText('Veuillez saisir une adresse e-mail valide.');
  await expectAccessible(page);
  await email.fill(address);
  await panel.getByRole('button', { name: 'Enregistrer l’adresse' }).click();
  await expect(panel.getByText(`Si vous manquez notre réponse, nous l’enverrons à ${address}.`)).toBeVisible();
  await expectAccessible(page);
  // The visitor leaves before anyone answers.
  await context.close();

  const staff = await playwright.request.newContext({
    baseURL: OFFLINE,
    extraHTTPHeaders: { Origin: OFFLINE, Cookie: `${storageEntry('session').name}=${CHAT_OPERATOR.sessionToken}` },
  });
  const list = (await (await staff.get('/api/console/chat/conversations')).json()) as {
    conversations: { id: number; lastMessage: { excerpt: string } | null }[];
  };
  const conversation = list.conversations.find((c) => c.lastMessage?.excerpt === question);
  expect(conversation).toBeDefined();
  const answer = 'Oui, en deux jours.';
  const sent = await staff.post(`/api/console/chat/conversations/${conversation?.id}/messages`, {
    data: { body: answer, clientMessageId: randomUUID() },
  });
  expect(sent.status()).toBe(201);

  const mail = await mailTo(address);
  expect(mail.subject).toBe('Your Company a répondu à votre message');
  expect(mail.text).toContain(question);
  expect(mail.text).toContain(answer);
  await staff.dispose();
});

test('every state of the panel is accessible, and ending the conversation forgets it here', async ({ browser }) => {
  const { context, page } = await visit(browser, CHAT, '/de/about');
  await launcherOf(page, 'Chat öffnen').click();
  const panel = panelOf(page, 'Chatten Sie mit uns');
  await expectAccessible(page);

  // A message that fails to leave is marked and sent again, once.
  await page.route('**/api/chat/messages', (route) => route.abort('internetdisconnected'));
  const text = `Hallo ${randomUUID()}`;
  const field = panel.getByRole('textbox', { name: 'Ihre Nachricht' });
  await field.fill(text);
  await field.press('Enter');
  await expect(panel.getByText('Nicht gesendet.')).toBeVisible();
  await expectAccessible(page);
  await page.unroute('**/api/chat/messages');
  await panel.getByRole('button', { name: 'Erneut senden' }).click();
  await expect(panel.getByText('Nicht gesendet.')).toHaveCount(0);
  await expect(panel.getByRole('log').getByText(text)).toHaveCount(1);

  await panel.getByRole('button', { name: 'Gespräch beenden' }).click();
  const confirm = panel.getByRole('button', { name: 'Ja, beenden' });
  await expect(confirm).toBeFocused();
  await expectAccessible(page);
  await confirm.click();
  await expect(panel.getByText('Das Gespräch ist beendet. Vielen Dank!')).toBeVisible();
  await expect(panel.getByRole('textbox', { name: 'Ihre Nachricht' })).toBeFocused();
  await expectAccessible(page);
  expect(await chatCookies(context)).toEqual([]);
  await page.reload();
  await waitForHydration(page);
  await launcherOf(page, 'Chat öffnen').click();
  await expect(panelOf(page, 'Chatten Sie mit uns').getByRole('log')).not.toContainText(text);
  await context.close();
});
