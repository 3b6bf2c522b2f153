import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { POSTHOG_PATH } from '#common/analytics.ts';
import { expectAccessible, waitForHydration } from './helpers.ts';
import { NO_MAIL_DATA_DIR, NO_MAIL_PORT } from './settings.ts';
import { newStaff, signInToConsole, consoleTexts as t } from './staff.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

test('the analytics page filters by a clicked row through its address, exports what it shows, and reads in dark mode', async ({
  page,
  context,
  baseURL,
  request,
  browser,
}) => {
  // Two visits of one visitor from a campaign of this test's own, on a phone.
  const campaign = `e2e-${randomBytes(4).toString('hex')}`;
  const visitor = `v1.e2e-${randomBytes(4).toString('hex')}`;
  const now = Date.now();
  // The second visit starts 44 minutes after the first one's last page view.
  const events = [
    ['/th', -46],
    ['/th/about', -45],
    ['/nl', -1],
  ].map(([path, minutes]) => ({
    event: '$pageview',
    uuid: randomBytes(16).toString('hex'),
    timestamp: new Date(now + Number(minutes) * 60_000).toISOString(),
    properties: {
      distinct_id: visitor,
      $current_url: `${baseURL}${path}?utm_source=e2e&utm_campaign=${campaign}`,
      $host: new URL(baseURL ?? '').host,
      $referrer: 'https://referrer-e2e.example/somewhere',
      $browser_language: 'th-TH',
    },
  }));
  // Through the one trusted proxy, from an address in Japan.
  const sent = await request.post(`${POSTHOG_PATH}/e/`, {
    data: { batch: events },
    headers: { 'User-Agent': IPHONE, 'X-Forwarded-For': '133.1.1.1' },
  });
  expect(sent.status()).toBe(200);

  // A visitor who declined: their page view is counted, without anything that identifies them.
  const declined = await browser.newContext({ baseURL });
  await declined.addCookies([{ name: 'consent', value: 'denied', url: baseURL ?? '', sameSite: 'Lax' }]);
  const other = await declined.newPage();
  await other.goto('/de/about');
  await waitForHydration(other);
  // The page's services (which count it) run once the page has settled.
  await expect(other.locator('html')).toHaveAttribute('data-visitor', /.+/, { timeout: 15_000 });
  const counted = other.waitForRequest((sent) => sent.url().endsWith('/api/analytics/unconsented'));
  // Leaving the page through the app counts it.
  await other.locator('header a[href="/de"]').first().click();
  await expect(other).toHaveURL(/\/de$/);
  const count = await counted;
  expect(count.postDataJSON()).toEqual({ path: '/de/about' });
  expect(await count.headerValue('cookie')).toBeNull();
  await declined.close();

  const operator = await newStaff(context, baseURL ?? '', 'operator');
  await signInToConsole(page, operator, '/console/analytics');
  await page.goto('/console/analytics?period=7d');
  await expect(page.locator('h1')).toHaveText(t.analytics.title);
  await expect(page.getByText(t.analytics.consent)).toBeVisible();
  await expect(page.locator('.chart__canvas canvas')).toHaveCount(2);
  const unconsented = page.getByRole('table', { name: t.analytics.unconsentedCaption });
  await expect(unconsented.getByRole('row').filter({ hasText: '/de/about' })).toBeVisible();
  // Right now: the visitor of a minute ago, on the page they saw last.
  const rightNow = page.getByRole('region', { name: t.analytics.rightNow.title });
  await expect(rightNow.getByRole('rowheader', { name: '/nl', exact: true })).toBeVisible();
  await expect(rightNow.getByRole('rowheader', { name: '/th/about', exact: true })).toHaveCount(0);

  // One row per day, and the languages in the console's language with their own names.
  const views = page.getByRole('table', {
    name: t.analytics.tableCaption.replace('{{title}}', t.analytics.viewsPerDay),
  });
  await expect(views.locator('tbody tr')).toHaveCount(7);
  await expect(views.getByRole('columnheader', { name: 'Thai (ไทย)' })).toBeVisible();
  await expect(page.getByRole('table', { name: t.analytics.contactCaption }).locator('tbody tr')).toHaveCount(7);

  // Clicking the campaign filters the whole page, and the filter survives a reload.
  const campaigns = page.getByRole('region', { name: t.analytics.breakdowns.campaign.title });
  await campaigns.getByRole('button', { name: campaign }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]campaign=${campaign}`));
  await page.reload();
  const remove = page.getByRole('button', {
    name: t.analytics.removeFilter
      .replace('{{name}}', t.analytics.breakdowns.campaign.column)
      .replace('{{value}}', campaign),
  });
  await expect(remove).toBeVisible();
  const headline = (name: string) =>
    page
      .locator('.headline > div')
      .filter({ has: page.getByText(name, { exact: true }) })
      .locator('.headline__value');
  await expect(headline(t.analytics.headline.visitors)).toHaveText('1');
  await expect(headline(t.analytics.headline.visits)).toHaveText('2');
  await expect(headline(t.analytics.headline.views)).toHaveText('3');
  await expect(headline(t.analytics.headline.bounceRate)).toHaveText('50%');
  const devices = page.getByRole('region', { name: t.analytics.breakdowns.device.title });
  await expect(devices.locator('tbody tr')).toHaveCount(1);
  await expect(devices).toContainText(t.analytics.devices.mobile);
  const countries = page.getByRole('region', { name: t.analytics.breakdowns.country.title });
  await expect(countries.locator('tbody tr')).toHaveCount(1);
  await expect(countries.getByRole('button', { name: 'Japan (JP)' })).toBeVisible();
  await expect(countries.getByRole('link', { name: t.analytics.countrySource })).toHaveAttribute(
    'href',
    'https://db-ip.com',
  );
  await expectAccessible(page);

  // One table as CSV, and everything as a ZIP, headers in the console's language.
  const pages = page.getByRole('region', { name: t.analytics.breakdowns.page.title });
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    pages
      .getByRole('button', { name: t.analytics.exportTable.replace('{{title}}', t.analytics.breakdowns.page.title) })
      .click(),
  ]);
  const csvText = await readFile((await csv.path()) ?? '', 'utf8');
  expect(csvText.split('\r\n').slice(0, 4)).toEqual([
    `\uFEFF${t.analytics.breakdowns.page.column},${t.analytics.visitorsColumn},${t.analytics.visitsColumn},${t.analytics.viewsColumn}`,
    '/nl,1,1,1',
    '/th,1,1,1',
    '/th/about,1,1,1',
  ]);
  const [zip] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: t.analytics.exportAll }).click(),
  ]);
  expect(zip.suggestedFilename()).toMatch(/^analytics-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.zip$/);
  const archive = await readFile((await zip.path()) ?? '');
  expect(archive.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  // Stored, not compressed: each file's text is there as written.
  expect(archive.toString('utf8')).toContain(`${t.analytics.breakdowns.campaign.column},`);
  expect(archive.toString('utf8')).toContain(`${campaign},1,2,3`);

  await remove.click();
  await expect(page).not.toHaveURL(/campaign=/);

  // Dark mode: the lines take their lighter colours, and the page stays readable.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect
    .poll(() =>
      page.locator('.analytics').evaluate((element) => getComputedStyle(element).getPropertyValue('--chart-th')),
    )
    .toBe('#fbbf24');
  await expectAccessible(page);
});

test.describe('a site with many page views', () => {
  // A site of its own, so that no other test's periods get these page views.
  test.use({ baseURL: `http://localhost:${NO_MAIL_PORT}` });

  test('the analytics page says that unique visitors are estimated (decision 253)', async ({
    page,
    context,
    baseURL,
    request,
  }) => {
    // 2,100 page views of 300 visitors, in three batches (a batch holds at most 1,000 events) sent
    // at once: the roll-up job, had it run between them, would hold today's first batch only.
    const tag = randomBytes(4).toString('hex');
    const now = Date.now();
    const sent = await Promise.all(
      [0, 1, 2].map((part) =>
        request.post(`${POSTHOG_PATH}/e/`, {
          data: {
            batch: Array.from({ length: 700 }, (_, i) => ({
              event: '$pageview',
              uuid: randomBytes(16).toString('hex'),
              timestamp: new Date(now - (part * 700 + i) * 1000).toISOString(),
              properties: {
                distinct_id: `v1.${tag}-${i % 300}`,
                $current_url: `${baseURL}/${['en', 'it', 'th'][i % 3]}/about`,
                $host: new URL(baseURL ?? '').host,
              },
            })),
          },
          headers: { 'User-Agent': IPHONE, 'X-Forwarded-For': '133.1.1.2' },
        }),
      ),
    );
    expect(sent.map((answer) => answer.status())).toEqual([200, 200, 200]);
    const operator = await newStaff(context, baseURL ?? '', 'operator', 'Esti Mate', {
      server: { port: NO_MAIL_PORT, dataDir: NO_MAIL_DATA_DIR },
    });
    await signInToConsole(page, operator, '/console/analytics');
    await page.goto('/console/analytics?period=7d');
    await expect(page.getByText(t.analytics.estimated)).toBeVisible();
    const views = page
      .locator('.headline > div')
      .filter({ has: page.getByText(t.analytics.headline.views, { exact: true }) })
      .locator('.headline__value');
    await expect(views).toHaveText(/^\d{1,3}(,\d{3})+$/);
    await expectAccessible(page);
    // A filter reads raw events: every number exact, and no note.
    await page.goto('/console/analytics?period=7d&page=/en/about');
    await expect(page.locator('.headline')).toBeVisible();
    await expect(page.getByText(t.analytics.estimated)).toHaveCount(0);
  });
});
