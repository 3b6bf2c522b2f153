import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { unexpected } from './accounts.ts';
import { expectAccessible, waitForHydration, watchConsole } from './helpers.ts';
import { BRAND_DATA_DIR, BRAND_PORT, BRAND_SITE } from './settings.ts';
import { newStaff, signInToConsole, consoleTexts as t } from './staff.ts';

const errors = JSON.parse(
  readFileSync('public/locales/en/errors.json', 'utf8'),
) as typeof import('#locales/en/errors.json');
const homeTh = JSON.parse(readFileSync('public/locales/th/home.json', 'utf8')) as { hero: { title: string } };
const texts = t.texts;
const SITE_NAME = 'Your Company';
/** The Thai home page's heading as the release ships it, with the site's name filled in. */
const shippedTitle = homeTh.hero.title.replace('{{siteName}}', SITE_NAME);

/**
 * The Thai home title is one text of one shared site, and publishing puts every draft live: one test
 * at a time edits it (a repeated run has several at once). The lock lives in the site's data folder,
 * which every run of the suite makes anew.
 */
async function editingAlone(run: () => Promise<void>) {
  const lock = path.join(BRAND_DATA_DIR, 'texts-editing.lock');
  const take = () => {
    try {
      mkdirSync(lock);
      return true;
    } catch {
      return false;
    }
  };
  await expect.poll(take, { timeout: 120_000, intervals: [250] }).toBe(true);
  try {
    await run();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

// A published text is served from the instance's own render from then on, undo included: on the site
// whose content the tests change, not under the feet of the tests that compare pages with the build.
test.use({ baseURL: BRAND_SITE });

/**
 * A publish answers once this instance serves the pages, and waits behind any whole-site render the
 * brand and pictures tests started on this site: seconds on a busy machine.
 */
const RENDERED = { timeout: 60_000 };

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const heroTitleField = (page: Page) => page.getByRole('textbox', { name: /hero\.title/ });

test('an editor changes the Thai home title past the guards, and a browser without JavaScript is served it; undo brings the old one back', async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const marker = randomBytes(3).toString('hex');
  const editor = await newStaff(context, baseURL ?? '', 'editor', 'Eda Editor', {
    server: { port: BRAND_PORT, dataDir: BRAND_DATA_DIR },
  });
  const problems = watchConsole(page);
  await signInToConsole(page, editor, '/console/texts');

  // The overview: counts per language as numbers, and an editor's console offers only the site's content: texts and pictures.
  await expect(page.locator('h1')).toHaveText(texts.title);
  const nav = page.getByRole('navigation', { name: t.nav.label });
  await expect(nav.getByRole('link')).toHaveText([texts.nav, t.pictures.nav]);
  const perLanguage = page.getByRole('table', { name: texts.perLanguage });
  await expect(perLanguage.locator('tbody tr')).toHaveCount(6);
  const thai = perLanguage.getByRole('row', { name: /Thai/ });
  await expect(thai.getByRole('cell')).toHaveText([/^\d+$/, /^\d+$/, /^\d+$/]);
  await expectAccessible(page);
  // The console's own address leads an editor here too.
  await page.goto('/console');
  await expect(page).toHaveURL(/\/console\/texts$/);
  await expect(page.locator('h1')).toHaveText(texts.title);

  await thai.getByRole('link').click();
  await expect(page).toHaveURL(/\/console\/texts\?language=th$/);
  const groups = page.getByRole('table', { name: texts.perNamespace.replace('{{language}}', 'Thai (ไทย)') });
  await expect(groups.getByRole('row', { name: texts.namespaces.home })).toHaveCount(1);
  // What pages still show as placeholders, per page: the Thai home page's lead is one, linked to its text.
  const placeholders = page.getByRole('region', { name: texts.placeholdersIn.replace('{{language}}', 'Thai (ไทย)') });
  await expect(placeholders.getByRole('link', { name: 'home:hero.lead' })).toHaveAttribute(
    'href',
    '/console/texts/home?language=th&q=hero.lead',
  );
  await expectAccessible(page);
  await groups.getByRole('link', { name: texts.namespaces.home }).click();
  await expect(page).toHaveURL(/\/console\/texts\/home\?language=th$/);
  await expect(page.locator('h1')).toHaveText(`${texts.namespaces.home}: texts in Thai (ไทย)`);
  await expect(heroTitleField(page)).toBeVisible();
  await expectAccessible(page);

  // The filter keeps only texts still to do: none of those listed is done.
  await page.getByRole('combobox', { name: texts.namespace.show }).selectOption('open');
  await page.getByRole('button', { name: texts.namespace.apply, exact: true }).click();
  await expect(page).toHaveURL(/\/console\/texts\/home\?language=th&show=open$/);
  await expect(page.locator('.texts__shown')).toBeVisible();
  await expect(page.locator('.text-entry .texts__status--done')).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole('combobox', { name: texts.namespace.show }).selectOption('all');
  await page.getByRole('button', { name: texts.namespace.apply, exact: true }).click();
  await expect(page).toHaveURL(/\/console\/texts\/home\?language=th$/);

  await editingAlone(async () => {
    // A misspelt placeholder is refused, with the reason beside the field, which takes the focus.
    const field = heroTitleField(page);
    const save = page.getByRole('button', { name: `${texts.editor.save} – hero.title` });
    await field.fill('ยินดีต้อนรับสู่ {{siteNam}}');
    await save.click();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(new RegExp(literally(errors.TEXT_PLACEHOLDERS)));
    await expect(field).toBeFocused();
    await expectAccessible(page);

    const title = `ยินดีต้อนรับสู่ {{siteName}} ${marker}`;
    const served = title.replace('{{siteName}}', SITE_NAME);
    await field.fill(title);
    await save.click();
    const entry = page.locator('.text-entry', { has: field });
    await expect(entry.getByRole('status')).toHaveText(texts.editor.saved.replace('{{key}}', 'hero.title'));
    await expect(field).not.toHaveAttribute('aria-invalid');
    await expect(entry.locator('.texts__has-draft')).toHaveText(texts.editor.hasDraft);
    await expectAccessible(page);

    // The preview, in a tab of its own, shows the draft before it is published.
    const previewLink = page.getByRole('link', {
      name: `${texts.preview.page.replace('{{page}}', texts.pages.home)} ${texts.preview.newTab}`,
    });
    await expect(previewLink).toHaveAttribute('target', '_blank');
    const [preview] = await Promise.all([page.waitForEvent('popup'), previewLink.click()]);
    await expect(preview.locator('h1')).toHaveText(served);
    await preview.close();

    // Publishing: the Thai home page still shows placeholder texts, so the step asks first.
    await page.getByRole('link', { name: texts.toPublish }).click();
    await expect(page).toHaveURL(/\/console\/texts\/publish$/);
    await expect(page.getByRole('row', { name: /hero\.title/ })).toContainText(title);
    await expect(page.getByRole('heading', { name: texts.publish.placeholders })).toBeVisible();
    await expectAccessible(page);
    const publish = page.getByRole('button', { name: /^Publish \d+ texts?$/ });
    await publish.click();
    await expect(page.locator('.field__error')).toHaveText(errors.PLACEHOLDERS_LEFT);
    const confirm = page.getByRole('checkbox', { name: texts.publish.confirm });
    await expect(confirm).toBeFocused();
    await expectAccessible(page);
    await confirm.check();
    await publish.click();
    await expect(page.locator('.texts__published')).toHaveText(
      texts.publish.published_one.replace('{{count}}', '1'),
      RENDERED,
    );
    await expect(page.getByText(texts.publish.nothing)).toBeVisible();
    await expectAccessible(page);

    // Served as prerendered HTML: a browser without JavaScript reads the new title.
    const plain = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const html = await (await plain.request.get('/th')).text();
    expect(html).toContain(served);
    const plainPage = await plain.newPage();
    await plainPage.goto('/th');
    await expect(plainPage.locator('h1')).toHaveText(served);
    // With JavaScript, the page the server rendered runs as a built one: its policy allows its scripts.
    const visitor = await browser.newPage({ baseURL });
    const visitorProblems = watchConsole(visitor);
    await visitor.goto('/th');
    await waitForHydration(visitor);
    await expect(visitor.locator('h1')).toHaveText(served);
    expect(visitorProblems).toEqual([]);
    await visitor.close();

    // Its history names the new title; undo puts the shipped one back, served again at once.
    await page.goBack();
    await expect(page).toHaveURL(/\/console\/texts\/home\?language=th$/);
    await page.getByRole('button', { name: `${texts.history.toggle} – hero.title` }).click();
    const history = page.getByRole('region', { name: texts.history.title.replace('{{key}}', 'hero.title') });
    await expect(history.getByRole('listitem').first()).toContainText(title);
    await expectAccessible(page);
    await history.getByRole('button', { name: `${texts.history.undo} – hero.title` }).click();
    await expect(history.getByRole('status')).toHaveText(
      texts.history.undone.replace('{{key}}', 'hero.title'),
      RENDERED,
    );
    await expect(heroTitleField(page)).toHaveValue(homeTh.hero.title);
    await expectAccessible(page);
    await plainPage.goto('/th');
    await expect(plainPage.locator('h1')).toHaveText(shippedTitle);
    await plain.close();
  });
  expect(unexpected(problems)).toEqual([]);
});

const chatFr = JSON.parse(
  readFileSync('public/locales/fr/chat.json', 'utf8'),
) as typeof import('#locales/fr/chat.json');
const FRENCH = 'French (français)';
const chatTitleField = (page: Page) => page.getByRole('textbox', { name: /panel\.title/ });

test('an editor changes a text of the French chat, previews it in the chat, publishes, and a visitor’s chat shows it; undo brings the old one back', async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const marker = randomBytes(3).toString('hex');
  const editor = await newStaff(context, baseURL ?? '', 'editor', 'Eda Editor', {
    server: { port: BRAND_PORT, dataDir: BRAND_DATA_DIR },
  });
  const problems = watchConsole(page);
  await signInToConsole(page, editor, '/console/texts');
  await page.goto('/console/texts?language=fr');

  // The chat is a text group with its counts, like the pages' groups.
  const groups = page.getByRole('table', { name: texts.perNamespace.replace('{{language}}', FRENCH) });
  const chatRow = groups.getByRole('row', { name: texts.namespaces.chat });
  await expect(chatRow.getByRole('cell')).toHaveText([/^\d+$/, /^\d+$/, /^\d+$/]);
  await chatRow.getByRole('link').click();
  await expect(page).toHaveURL(/\/console\/texts\/chat\?language=fr$/);
  await expect(page.locator('h1')).toHaveText(new RegExp(`^${literally(texts.namespaces.chat)}: texts in French`));
  await expect(chatTitleField(page)).toHaveValue(chatFr.panel.title);
  // The console's own screens read chat.json too; their texts are not offered.
  await expect(page.getByRole('heading', { name: 'console', exact: true })).toHaveCount(0);
  await expect(page.getByText(texts.preview.chatIntro)).toBeVisible();
  await expectAccessible(page);

  await editingAlone(async () => {
    const title = `Parlons-en ${marker}`;
    const field = chatTitleField(page);
    await field.fill(title);
    await page.getByRole('button', { name: `${texts.editor.save} – panel.title` }).click();
    const entry = page.locator('.text-entry', { has: field });
    await expect(entry.getByRole('status')).toHaveText(texts.editor.saved.replace('{{key}}', 'panel.title'));

    // The preview is the live home page with the chat open, reading the drafts.
    const previewLink = page.getByRole('link', { name: `${texts.preview.chat} ${texts.preview.newTab}` });
    await expect(previewLink).toHaveAttribute('target', '_blank');
    const [preview] = await Promise.all([page.waitForEvent('popup'), previewLink.click()]);
    await expect(preview.locator('#chat-panel-title')).toHaveText(title);
    // An editor's header offers the console where a visitor's offers signing out, and the corner
    // holds the long name and the link without overlapping the menu.
    await expect(preview.locator('header').getByRole('link', { name: 'Console', exact: true })).toBeVisible();
    await expect(preview.locator('header').getByRole('button', { name: 'Se déconnecter' })).toHaveCount(0);
    await expectAccessible(preview);
    await preview.close();
    // A visitor asking for the drafts gets the published texts.
    const stranger = await browser.newPage({ baseURL });
    await stranger.goto('/fr?texts=drafts#chat');
    await expect(stranger.locator('#chat-panel-title')).toHaveText(chatFr.panel.title);
    await stranger.close();

    // Publishing names the chat on every page, in French; no page changes.
    await page.getByRole('link', { name: texts.toPublish }).click();
    await expect(page).toHaveURL(/\/console\/texts\/publish$/);
    await expect(page.getByRole('row', { name: /panel\.title/ })).toContainText(title);
    await expect(
      page.getByRole('listitem').filter({ hasText: texts.publish.chatIn.replace('{{languages}}', FRENCH) }),
    ).toHaveCount(1);
    await expectAccessible(page);
    await page.getByRole('button', { name: /^Publish \d+ texts?$/ }).click();
    await expect(page.locator('.texts__published')).toHaveText(
      texts.publish.published_one.replace('{{count}}', '1'),
      RENDERED,
    );

    // A visitor's chat shows it: every page names the French chat as published over, and the
    // chat reads the texts file the instance serves now.
    const visitorContext = await browser.newContext({ baseURL });
    const visitor = await visitorContext.newPage();
    const visitorProblems = watchConsole(visitor);
    const textsFile = visitor.waitForResponse((response) => response.url().endsWith('/locales/fr/chat.json'));
    const about = await visitor.goto('/fr/about');
    expect(await about?.text()).toContain('data-edited-texts="fr/chat"');
    await waitForHydration(visitor);
    await visitor.getByRole('button', { name: chatFr.launcher.open }).click();
    await expect(visitor.locator('#chat-panel-title')).toHaveText(title);
    expect((await textsFile).headers()['cache-control']).toBe('no-cache');
    await expectAccessible(visitor);
    expect(visitorProblems).toEqual([]);
    await visitorContext.close();

    // Undo puts the release's title back, and the chat reads its chunk again.
    await page.goBack();
    await expect(page).toHaveURL(/\/console\/texts\/chat\?language=fr$/);
    await page.getByRole('button', { name: `${texts.history.toggle} – panel.title` }).click();
    const history = page.getByRole('region', { name: texts.history.title.replace('{{key}}', 'panel.title') });
    await expect(history.getByRole('listitem').first()).toContainText(title);
    await history.getByRole('button', { name: `${texts.history.undo} – panel.title` }).click();
    await expect(history.getByRole('status')).toHaveText(
      texts.history.undone.replace('{{key}}', 'panel.title'),
      RENDERED,
    );
    const again = await browser.newPage({ baseURL });
    const home = await again.goto('/fr');
    expect(await home?.text()).not.toContain('data-edited-texts');
    await waitForHydration(again);
    await again.getByRole('button', { name: chatFr.launcher.open }).click();
    await expect(again.locator('#chat-panel-title')).toHaveText(chatFr.panel.title);
    await again.close();
  });
  expect(unexpected(problems)).toEqual([]);
});
