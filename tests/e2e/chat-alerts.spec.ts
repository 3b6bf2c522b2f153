import { randomUUID } from 'node:crypto';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { expectAccessible, waitForHydration, watchConsole } from './helpers.ts';
import { seededStaffContext } from './seeded-staff.ts';
import { CHAT_ADMIN, CHAT_HOURS_PORT, CHAT_OPERATOR, CHAT_PORT } from './settings.ts';

// Two browsers and live streams per test: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 120_000 });

const CHAT = `http://localhost:${CHAT_PORT}`;
const HOURS = `http://localhost:${CHAT_HOURS_PORT}`;

/**
 * Records every desktop notification the page creates (the real one is still shown) and every
 * request for permission, before any of the page's own code runs.
 */
async function recordNotifications(context: BrowserContext) {
  await context.addInitScript(() => {
    const record = window as unknown as { shown: { title: string; body?: string }[]; asked: number };
    record.shown = [];
    record.asked = 0;
    const Original = window.Notification;
    class Recorded extends Original {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        record.shown.push({ title, body: options?.body });
      }
      static override requestPermission(...args: Parameters<typeof Notification.requestPermission>) {
        record.asked++;
        return Original.requestPermission(...args);
      }
    }
    window.Notification = Recorded;
  });
}

/** The tab is in the background, as when the operator works in another one. */
const hide = (page: Page) =>
  page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });

async function visitorPage(browser: Browser, site: string) {
  const context = await browser.newContext({ baseURL: site });
  const page = await context.newPage();
  await page.goto('/en/about');
  await waitForHydration(page);
  await page.locator('button.chat-launcher').click();
  const panel = page.getByRole('region', { name: 'Chat with us' });
  await expect(panel).toBeVisible();
  return { context, page, panel };
}

test('an operator with the console hidden gets the waiting count in the tab and a desktop notification', async ({
  browser,
}) => {
  const staff = await seededStaffContext(browser, CHAT, CHAT_OPERATOR, { permissions: ['notifications'] });
  await recordNotifications(staff);
  const operator = await staff.newPage();
  const problems = watchConsole(operator);
  await operator.goto('/console/chat');
  const alerts = operator.getByRole('region', { name: 'Your alerts' });
  await expect(alerts.getByText('Desktop notifications are on while the console is open.')).toBeVisible();
  // Granted beforehand: nothing was asked, and nothing is ever asked on load.
  expect(await operator.evaluate(() => (window as unknown as { asked: number }).asked)).toBe(0);
  await expectAccessible(operator);
  await hide(operator);

  const { context, page, panel } = await visitorPage(browser, CHAT);
  const text = `Is anyone there? ${randomUUID()}`;
  const field = panel.getByRole('textbox', { name: 'Your message' });
  await field.fill(text);
  await field.press('Enter');
  await expect(panel.getByText('Sending…')).toHaveCount(0);

  await expect(operator).toHaveTitle(/^\(\d+\) Chats – Console/);
  await expect
    .poll(() => operator.evaluate(() => (window as unknown as { shown: { body?: string }[] }).shown))
    .toContainEqual({ title: expect.stringMatching(/wrote in the chat$/), body: text });
  await expect(operator.locator('link[rel~="icon"]')).toHaveAttribute('href', /^data:image\/png/);

  // Back on the tab: the conversation shows the message's time, and the visitor typing.
  await operator.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await operator.getByRole('button', { name: new RegExp(text.slice(-12)) }).click();
  const thread = operator.getByRole('log');
  await expect(thread.locator('time').first()).toHaveText(/\d{1,2}:\d{2}/);
  await field.pressSequentially('one more');
  await expect(operator.getByText(/is typing…$/)).toBeVisible();
  await expectAccessible(operator);

  // The operator types: the visitor sees it.
  await operator.getByRole('textbox', { name: 'Your reply' }).pressSequentially('Hello');
  await expect(panel.getByText('Your Company is typing…')).toBeVisible();
  await expectAccessible(page);

  // Blocking asks first; cancelling keeps the visitor writing.
  await operator.getByRole('button', { name: 'Block visitor' }).click();
  const question = operator.getByRole('group', { name: /^Block this visitor\?/ });
  await expect(question).toBeVisible();
  await expect(question.getByRole('button', { name: 'Yes, block' })).toBeFocused();
  await expectAccessible(operator);
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(operator.getByRole('button', { name: 'Block visitor' })).toBeFocused();

  expect(problems).toEqual([]);
  await context.close();
  await staff.close();
});

test('desktop notifications are asked for on a click, never on load', async ({ browser }) => {
  const staff = await seededStaffContext(browser, CHAT);
  await recordNotifications(staff);
  const operator = await staff.newPage();
  await operator.goto('/console/chat');
  const turnOn = operator.getByRole('button', { name: 'Turn on desktop notifications' });
  await expect(turnOn).toBeVisible();
  expect(await operator.evaluate(() => (window as unknown as { asked: number }).asked)).toBe(0);
  await turnOn.click();
  await expect.poll(() => operator.evaluate(() => (window as unknown as { asked: number }).asked)).toBe(1);
  await staff.close();
});

test('outside office hours a visitor is told when the team is back and asked for an address first', async ({
  browser,
}) => {
  // An admin sets the hours: yesterday, today and tomorrow are holidays (wherever midnight falls).
  const staff = await seededStaffContext(browser, HOURS, CHAT_ADMIN);
  const admin = await staff.newPage();
  await admin.goto('/console/chat-settings');
  await expect(admin.getByRole('heading', { name: 'Chat settings', level: 1 })).toBeVisible();
  await admin.getByRole('checkbox', { name: 'Use office hours' }).check();
  await admin.getByRole('combobox', { name: 'Time zone of the hours' }).selectOption('UTC');
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  for (const offset of [-1, 0, 1]) {
    await admin.getByLabel('Date', { exact: true }).fill(day(offset));
    await admin.getByRole('button', { name: 'Add holiday' }).click();
  }
  await expectAccessible(admin);
  await admin.getByRole('button', { name: 'Save settings' }).click();
  await expect(admin.getByText('Chat settings saved.')).toBeVisible();
  await staff.close();

  const { context, page, panel } = await visitorPage(browser, HOURS);
  await expect(panel.getByText(/^We are away\. Back .+ at .+\.$/)).toBeVisible();
  await expect(panel.getByText('Leave us a message: we will answer by email when we are back.')).toBeVisible();
  const email = panel.getByRole('textbox', { name: 'Your email address, so that we can answer you' });
  await expect(email).toBeVisible();
  await expectAccessible(page);

  // The message waits for the address.
  const field = panel.getByRole('textbox', { name: 'Your message' });
  await field.fill('Are you open on Saturday?');
  await field.press('Enter');
  await expect(panel.getByRole('alert')).toHaveText('Please enter a valid email address.');
  await expect(email).toBeFocused();
  await expectAccessible(page);
  await expect(panel.getByRole('log')).not.toContainText('Are you open on Saturday?');

  await email.fill(`weekend-${randomUUID().slice(0, 8)}@example.com`);
  await field.press('Enter');
  await expect(panel.getByRole('log')).toContainText('Are you open on Saturday?');
  await expect(panel.getByText('Sending…')).toHaveCount(0);
  await expect(panel.getByText(/^If you miss our answer, we will send it to weekend-/)).toBeVisible();
  await expect(email).toHaveCount(0);
  await context.close();
});
