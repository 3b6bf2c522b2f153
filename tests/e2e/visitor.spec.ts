import { gunzipSync } from 'node:zlib';
import { type BrowserContext, expect, type Page, type Request, test } from '@playwright/test';
import { reportToken } from '#server/features/analytics/index.ts';
import { issueFpid } from '#server/features/visitor/index.ts';
import { expectAccessible, layoutShift, waitForHydration, watchConsole } from './helpers.ts';
import { SERVER_SECRET } from './settings.ts';

const FPID = /^v1\.[\w-]+\.[\w-]+$/;
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/;
const YEAR_SECONDS = 365 * 24 * 60 * 60;
const SLOW = { timeout: 20_000 };

/**
 * Resolves once the visitor services have settled on this page and the identifier flow is where
 * `mark` says (VisitorServices marks the document): after that, nothing more is sent on its own.
 */
async function visitorSettled(page: Page, mark: 'identified' | 'failed' | 'off') {
  await page.waitForFunction((wanted) => document.documentElement.dataset.visitor === wanted, mark, SLOW);
}

/** Requests of a page to a path, as they leave the browser. */
function recordRequests(page: Page, path: string): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith(path)) requests.push(request);
  });
  return requests;
}

const prompt = (page: Page) => page.getByRole('region', { name: 'Your privacy choice' });

async function cookie(context: BrowserContext, name: string) {
  return (await context.cookies()).find((c) => c.name === name);
}

/** The events of a posthog-js request body, whichever encoding it chose. */
function eventsIn(request: Request): { event: string; properties: Record<string, unknown>; $set?: object }[] {
  const body = request.postDataBuffer() ?? Buffer.alloc(0);
  const text = body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body).toString() : body.toString();
  const decoded = text.startsWith('data=')
    ? Buffer.from(new URLSearchParams(text).get('data') ?? '', 'base64').toString()
    : text;
  const payload = JSON.parse(decoded);
  return Array.isArray(payload) ? payload : (payload.batch ?? [payload]);
}

/** Page views of a page today, as the embedded store reports them to `npm run analytics`. */
async function reportedViews(site: string, path: string): Promise<number> {
  const response = await fetch(`${site}/api/analytics/report?days=1`, {
    headers: { Authorization: `Bearer ${reportToken(Buffer.from(SERVER_SECRET, 'utf8'))}` },
  });
  const rows = (await response.json()) as { path: string; views: number }[];
  return rows.filter((row) => row.path === path).reduce((sum, row) => sum + row.views, 0);
}

test('a first visit sends the fingerprint record once and keeps the identifier in a cookie', async ({
  page,
  context,
}) => {
  const problems = watchConsole(page);
  const records = recordRequests(page, '/api/fingerprint');
  await page.goto('/en');
  await waitForHydration(page);
  // Nothing of it happens before the page has painted and hydrated.
  expect(records).toHaveLength(0);

  await expect(prompt(page)).toBeVisible();
  await expect.poll(async () => (await cookie(context, '_fpid'))?.value, SLOW).toMatch(FPID);
  expect(records).toHaveLength(1);
  const record = records[0]?.postDataJSON();
  expect(Object.keys(record).sort()).toEqual(['components', 'timestamp', 'userAgent', 'visitorId']);
  expect(record.visitorId).toMatch(/^[0-9a-f]{32}$/);
  expect(record.userAgent).toBe(await page.evaluate(() => navigator.userAgent));
  const answer = await (await records[0]?.response())?.json();

  const fpid = await cookie(context, '_fpid');
  expect(fpid).toMatchObject({ value: answer.fpid, path: '/', sameSite: 'Lax', secure: true, httpOnly: false });
  expect(fpid?.expires ?? 0).toBeGreaterThan(Date.now() / 1000 + YEAR_SECONDS - 3600);
  expect(problems).toEqual([]);
});

test('a return visit sends nothing, even right after the answer', async ({ page }) => {
  const records = recordRequests(page, '/api/fingerprint');
  await page.goto('/fr');
  await expect.poll(() => records.length, SLOW).toBe(1);
  // The next page is opened as soon as the answer is in, well before the specification's 100 ms.
  await records[0]?.response();
  await page.goto('/fr/about');
  await expect(page.getByRole('region', { name: 'Votre choix en matière de confidentialité' })).toBeVisible();
  await visitorSettled(page, 'identified');
  expect(records).toHaveLength(1);
});

test('the consent prompt overlays the page, is accessible and usable by keyboard', async ({ page }) => {
  await page.goto('/de/about');
  await waitForHydration(page);
  const region = page.getByRole('region', { name: 'Ihre Datenschutzentscheidung' });
  await expect(region).toBeVisible();
  await expectAccessible(page);
  expect(await region.evaluate((element) => getComputedStyle(element).position)).toBe('fixed');
  // The header may still settle while the page loads (a matter of the layout, not of the prompt).
  const shift = await layoutShift(page, { ms: 300, ignore: '.site-header' });
  expect(shift).toBe(0);

  await region.getByRole('button', { name: 'Ablehnen' }).focus();
  await expect(region.getByRole('button', { name: 'Ablehnen' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(region).toBeHidden();
  await expect(page.locator('main')).toBeFocused();
});

test('declined consent sends no analytics at all', async ({ page, context }) => {
  const problems = watchConsole(page);
  const analytics = recordRequests(page, '/api/posthog');
  await page.goto('/it');
  await prompt(page)
    .or(page.getByRole('region', { name: 'La tua scelta sulla privacy' }))
    .waitFor();
  await page.getByRole('button', { name: 'Rifiuta' }).click();
  expect((await cookie(context, 'consent'))?.value).toBe('denied');

  await page.locator('header').getByRole('link', { name: 'Chi siamo' }).click();
  await expect(page).toHaveURL(/\/it\/about$/);
  await page.goto('/it/contact');
  await waitForHydration(page);
  await visitorSettled(page, 'identified');
  expect(analytics).toHaveLength(0);
  await expect(page.getByRole('region', { name: 'La tua scelta sulla privacy' })).toHaveCount(0);
  const stored = await page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)]);
  expect(stored.filter((name) => name.startsWith('ph_'))).toEqual([]);
  expect((await context.cookies()).map((c) => c.name)).not.toContain('ph_fpid');
  expect(problems).toEqual([]);
});

test.describe('with consent granted', () => {
  // posthog-js drops events from browsers driven by automation; this one acts as a visitor's.
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => Object.defineProperty(navigator, 'webdriver', { get: () => false }));
  });
  test.use({
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  });

  test('events go through the first-party proxy under the visitor identifier, each page view once', async ({
    page,
    context,
  }) => {
    const problems = watchConsole(page);
    const analytics = recordRequests(page, '/api/posthog');
    await page.goto('/nl');
    await page.getByRole('button', { name: 'Statistieken toestaan' }).click();
    await expect(page.getByRole('region', { name: 'Jouw privacykeuze' })).toBeHidden();
    await expect.poll(async () => (await cookie(context, '_fpid'))?.value, SLOW).toMatch(FPID);
    const fpid = (await cookie(context, '_fpid'))?.value;

    const events = async () =>
      analytics
        .filter((r) => r.method() === 'POST' && /\/api\/posthog\/(e|i\/v0\/e)\//.test(r.url()))
        .flatMap(eventsIn);
    const names = async () => (await events()).map((e) => e.event);
    await expect.poll(names, SLOW).toContain('$pageview');
    await expect.poll(names, SLOW).toContain('$identify');
    const first = await events();
    for (const event of first) expect(event.properties.distinct_id).toBe(fpid);
    const identify = first.find((e) => e.event === '$identify');
    expect(identify?.$set).toMatchObject({
      environment: 'development',
      language: expect.any(String),
      time_zone: expect.any(String),
      user_agent: expect.stringContaining('Chrome/140'),
    });

    await page.locator('header').getByRole('link', { name: 'Over ons' }).click();
    await expect(page).toHaveURL(/\/nl\/about$/);
    const views = async () => (await events()).filter((e) => e.event === '$pageview');
    await expect.poll(async () => (await views()).length, SLOW).toBe(2);
    const leave = (await events()).find((e) => e.event === '$pageleave');
    expect(leave?.properties.$pathname).toBe('/nl');
    // The page the visit began on was counted once: by the early beacon, not again by posthog-js.
    expect((await views()).map((e) => e.properties.$pathname)).toEqual(['/nl', '/nl/about']);

    // A reload of a page reached within the site is one view too: its inline script counts it, and
    // the app takes that view over, though the history entry still holds the earlier navigation's key.
    await page.reload();
    await waitForHydration(page);
    await visitorSettled(page, 'identified');
    await page.locator('header').getByRole('link', { name: 'Contact' }).click();
    await expect(page).toHaveURL(/\/nl\/contact$/);
    await expect.poll(async () => (await views()).at(-1)?.properties.$pathname, SLOW).toBe('/nl/contact');
    expect((await views()).map((e) => e.properties.$pathname)).toEqual([
      '/nl',
      '/nl/about',
      '/nl/about',
      '/nl/contact',
    ]);
    for (const request of analytics) expect((await request.response())?.status()).toBe(200);

    // Only the declared items are stored, under the declared names (no language: none was chosen).
    expect((await context.cookies()).map((c) => c.name).sort()).toEqual(['_fpid', 'consent', 'ph_fpid']);
    expect(problems).toEqual([]);
  });

  test('a visit of a second is counted once, under the identifier when the visitor has one', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: 'consent', value: 'granted', url: baseURL ?? '', sameSite: 'Lax' }]);
    const sent: Request[] = [];
    context.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/api/posthog/'))
        sent.push(request);
    });
    const viewsOf = (path: string) =>
      sent
        .filter((request) => request.postDataBuffer()?.length)
        .flatMap(eventsIn)
        .filter((e) => e.event === '$pageview' && e.properties.$pathname === path);
    const painted = () => page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    // A page of its own for each repetition of this test, which may run side by side.
    const language = ['it', 'fr', 'de', 'th', 'en', 'nl'][test.info().repeatEachIndex % 6];

    // A first visit, left as soon as it has painted: no identifier yet, so the view goes
    // anonymously as the page is left (a beacon during unload, which only the server sees).
    const before = await reportedViews(baseURL ?? '', `/${language}/terms`);
    await page.goto(`/${language}/terms`);
    await painted();
    await page.goto(`/${language}/about`);
    await expect.poll(() => reportedViews(baseURL ?? '', `/${language}/terms`), SLOW).toBe(before + 1);

    // A returning visitor: counted under the identifier as soon as the page has painted, and not
    // again when it is left.
    const fpid = issueFpid(Buffer.from(SERVER_SECRET, 'utf8'), `returning-visitor-${language}`);
    await context.addCookies([{ name: '_fpid', value: fpid, url: baseURL ?? '', sameSite: 'Lax' }]);
    const beforeReturn = await reportedViews(baseURL ?? '', `/${language}/privacy-policy`);
    await page.goto(`/${language}/privacy-policy`);
    await painted();
    await expect.poll(() => viewsOf(`/${language}/privacy-policy`).length, SLOW).toBe(1);
    expect(viewsOf(`/${language}/privacy-policy`)[0]?.properties.distinct_id).toBe(fpid);
    await page.goto(`/${language}/about`);
    await painted();
    await expect.poll(() => reportedViews(baseURL ?? '', `/${language}/privacy-policy`), SLOW).toBe(beforeReturn + 1);
    expect(viewsOf(`/${language}/privacy-policy`)).toHaveLength(1);
  });

  test('withdrawing consent on the cookie policy stops analytics and removes its data', async ({ page, context }) => {
    await page.goto('/en/cookie-policy');
    await page.getByRole('button', { name: 'Allow analytics' }).first().click();
    await expect.poll(async () => (await cookie(context, 'ph_fpid'))?.value, SLOW).toBeTruthy();
    const settings = page.getByRole('region', { name: 'Your choice' });
    await expect(settings.getByText('You currently allow analytics.')).toBeVisible();
    await expect(settings.getByRole('button', { name: 'Allow analytics' })).toHaveAttribute('aria-pressed', 'true');
    await expectAccessible(page);

    await settings.getByRole('button', { name: 'Decline analytics' }).click();
    await expect(settings.getByText('You currently decline analytics.')).toBeVisible();
    expect((await cookie(context, 'consent'))?.value).toBe('denied');
    await expect.poll(async () => (await cookie(context, 'ph_fpid'))?.value).toBeUndefined();
    const analyticsStorage = () =>
      page.evaluate(() =>
        [...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter((key) => key.startsWith('ph_')),
      );
    await expect.poll(analyticsStorage).toEqual([]);

    // What was captured before the withdrawal may still leave in posthog-js's last flush; after it,
    // nothing does.
    const analytics = recordRequests(page, '/api/posthog');
    await page.locator('header').getByRole('link', { name: 'About' }).click();
    await page.waitForTimeout(4_000);
    expect(analytics).toEqual([]);
    expect(await analyticsStorage()).toEqual([]);
  });
});

test('same-origin fetches carry traceparent, and the visit is exported as one trace', async ({ page }) => {
  const records = recordRequests(page, '/api/fingerprint');
  const texts = recordRequests(page, '/locales/');
  const traces = recordRequests(page, '/api/traces');
  await page.goto('/th');
  await expect.poll(() => records.length, SLOW).toBe(1);
  const traceparent = records[0]?.headers().traceparent ?? '';
  expect(traceparent).toMatch(TRACEPARENT);

  await page.locator('header').getByRole('link', { name: 'ติดต่อเรา' }).click();
  await expect.poll(() => texts.length).toBeGreaterThan(0);
  const traceId = traceparent.split('-')[1];
  for (const request of texts) expect(request.headers().traceparent?.split('-')[1]).toBe(traceId);

  // Leaving the page ends the session span and sends what is left. A real unload sends it with
  // keepalive, which the test cannot watch; the same two events, without leaving, can be.
  await page.evaluate(() => {
    window.dispatchEvent(new PageTransitionEvent('pagehide'));
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  type Span = { name: string; traceId: string; attributes: { key: string; value: Record<string, unknown> }[] };
  const exported = () =>
    traces.flatMap((request) =>
      request
        .postDataJSON()
        .resourceSpans.flatMap((r: { scopeSpans: { spans: unknown[] }[] }) => r.scopeSpans.flatMap((s) => s.spans)),
    ) as Span[];
  const isFingerprintFetch = (s: Span) =>
    s.attributes.some((a) => a.key === 'url.full' && String(Object.values(a.value)[0]).endsWith('/api/fingerprint'));
  // The page's other fetches (the contact form asks for its time stamp) may come in another batch.
  await expect
    .poll(() => exported().some((s) => s.name === 'application-session') && exported().some(isFingerprintFetch), {
      timeout: 10_000,
    })
    .toBe(true);
  const spans = exported();
  const fetchSpan = spans.find(isFingerprintFetch);
  const attributes = Object.fromEntries(fetchSpan?.attributes.map((a) => [a.key, Object.values(a.value)[0]]) ?? []);
  expect(attributes).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 200 });
  expect(fetchSpan?.traceId).toBe(traceId);
  // What the privacy policy says they carry, and no more: no user agent, no visitor identifier.
  const posted = traces.map((request) => request.postData() ?? '').join('\n');
  expect(posted).not.toContain(await page.evaluate(() => navigator.userAgent));
  const fpid = (await page.context().cookies()).find((c) => c.name === '_fpid')?.value;
  expect(fpid).toBeTruthy();
  expect(posted).not.toContain(fpid);
  const version = traces[0]
    ?.postDataJSON()
    .resourceSpans[0].resource.attributes.find((a: { key: string }) => a.key === 'service.version');
  expect(version?.value.stringValue).toBe('1.0.0');
});

/** Turns the operator's privacy option on for one visit: it arrives with the page's configuration. */
async function withPrivacyOption(page: Page) {
  await page.addInitScript(() => {
    let config: unknown;
    Object.defineProperty(window, '__SITE_CONFIG__', {
      get: () => config,
      set: (value: { privacy: object }) => {
        config = { ...value, privacy: { fingerprintAfterConsent: true } };
      },
    });
  });
}

test('with the privacy option, the fingerprint waits for consent, and the prompt says so', async ({ page }) => {
  await withPrivacyOption(page);
  const records = recordRequests(page, '/api/fingerprint');
  await page.goto('/en');
  await expect(prompt(page)).toBeVisible();
  await expect(prompt(page)).toContainText(
    'May we recognise your browser by an identifier computed from its characteristics',
  );
  await visitorSettled(page, 'off');
  expect(records).toHaveLength(0);
  await prompt(page).getByRole('button', { name: 'Allow analytics' }).click();
  await expect.poll(() => records.length, SLOW).toBe(1);
});

test('with the privacy option, withdrawing consent deletes the visitor identifier', async ({ page, context }) => {
  await withPrivacyOption(page);
  await page.goto('/en');
  await prompt(page).getByRole('button', { name: 'Allow analytics' }).click();
  await expect.poll(async () => (await cookie(context, '_fpid'))?.value, SLOW).toMatch(FPID);

  // The cookie policy, reached in the app (the prerendered one was built without the option).
  await page.locator('footer').getByRole('link', { name: 'Privacy settings' }).click();
  const settings = page.getByRole('region', { name: 'Your choice' });
  await expect(settings).toContainText('if you withdraw your consent, the _fpid cookie is deleted');
  await settings.getByRole('button', { name: 'Decline analytics' }).click();
  await expect(settings.getByText('You currently decline analytics.')).toBeVisible();
  expect(await cookie(context, '_fpid')).toBeUndefined();
  // Nothing brings it back while consent stays withdrawn.
  await page.waitForTimeout(1_000);
  expect(await cookie(context, '_fpid')).toBeUndefined();
});
