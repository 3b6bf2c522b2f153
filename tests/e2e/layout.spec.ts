import { expect, type Page, test } from '@playwright/test';
import { LANGUAGES } from '#common/languages.ts';
import { STORAGE_ENTRIES } from '#common/storage.ts';
import { layoutShift, waitForHydration } from './helpers.ts';

test('the skip link is the first stop and leads to the main content', async ({ page }) => {
  await page.goto('/en/about');
  await waitForHydration(page);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
});

test('header and footer keep their reserved heights', async ({ page }) => {
  await page.goto('/th');
  expect((await page.locator('header').boundingBox())?.height).toBeGreaterThanOrEqual(72);
  expect((await page.locator('footer').boundingBox())?.height).toBeGreaterThanOrEqual(240);
});

test('nothing shifts while a page loads and hydrates, nor while the next one completes', async ({ page }) => {
  await page.goto('/fr/privacy-policy');
  await waitForHydration(page);
  expect(await layoutShift(page)).toBe(0);
  await page.locator('header').getByRole('link', { name: 'Contact' }).click();
  // The swap of pages answers the click and moves the footer, the later the busier the machine;
  // from the moment the contact page is shown, nothing may move.
  await expect(page.locator('h1')).toHaveText('Nous contacter');
  const shown = await page.evaluate(() => performance.now());
  expect(await layoutShift(page, { since: shown })).toBe(0);
});

// A page paints with the critical sheet and its own sheets inlined, each with a disabled link to its
// file beside it, which the browser does not fetch and in which Vite's preload helper finds the
// sheet already there when the app imports a chunk that names it (decision 098).
test('a page fetches none of its own stylesheets; a navigation has the next page’s before showing it', async ({
  page,
}) => {
  const fetched: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('.css')) fetched.push(new URL(request.url()).pathname);
  });
  await page.addInitScript(() => {
    // The contact page's form card, measured the moment it enters the document.
    new MutationObserver((_records, observer) => {
      const card = document.querySelector('.contact-form');
      if (!card) return;
      (window as unknown as { cardMargin: string }).cardMargin = getComputedStyle(card).marginTop;
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/en/privacy-policy');
  await waitForHydration(page);
  await expect(page.locator('.chat-launcher')).toBeVisible();
  const links = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((link) => ({
      path: new URL(link.href).pathname,
      disabled: link.disabled,
    })),
  );
  // The critical sheet, the legal pages' sheet and the operator's details, as the server wrote
  // them: disabled, and linked once each (the sheets that came after the paint, the chat's, are
  // enabled links). Every chunk that imports on demand names the critical sheet among its preloads.
  const own = links.filter((link) => link.disabled).map((link) => link.path);
  expect(own).toHaveLength(3);
  expect(links.filter((link) => own.includes(link.path))).toHaveLength(3);
  expect(await page.locator('.legal__updated').evaluate((p) => getComputedStyle(p).fontSize)).toBe('15.2px');

  await page.locator('header').getByRole('link', { name: 'Contact' }).click();
  await expect(page.locator('.contact-form')).toBeVisible();
  // Styled from its first frame: the sheet came before the page did.
  expect(await page.evaluate(() => (window as unknown as { cardMargin?: string }).cardMargin)).toBe('32px');
  const contactSheets = fetched.filter((file) => /\/ContactPage-[^/]*\.css$/.test(file));
  expect(contactSheets).toHaveLength(1);
  // Nothing inlined was fetched, on arrival or when the contact page brought the operator's details again.
  expect(fetched.filter((file) => own.includes(file))).toEqual([]);
});

test('a short page whose footer is in view on a phone does not move it while it loads', async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 823 });
  await page.goto('/th/imprint');
  await waitForHydration(page);
  expect(await layoutShift(page)).toBe(0);
});

/** Scrolls down a screen at a time until the footer is in view; the page grows as its sections get laid out. */
async function scrollToFooter(page: Page, screen: number) {
  await expect(async () => {
    await page.mouse.wheel(0, screen);
    await expect(page.locator('footer')).toBeInViewport({ timeout: 200 });
  }).toPass();
}

const lastHeading = (page: Page) => page.locator('.legal > section').last().locator('h2');
const laidOut = (page: Page) =>
  lastHeading(page).evaluate((heading) => heading.checkVisibility({ contentVisibilityAuto: true }));

// As without JavaScript: the page as the server wrote it and the browser lays it out.
test.describe('without the app', () => {
  test.beforeEach(async ({ page }) => {
    await page.route('**/*.js', (route) => route.abort());
  });

  for (const viewport of [
    { width: 412, height: 823 },
    { width: 1350, height: 940 },
  ]) {
    test(`the Thai privacy policy at ${viewport.width}px lays out its far sections as they come near, and nothing moves`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto('/th/privacy-policy');
      expect(await laidOut(page)).toBe(false);
      expect(await layoutShift(page)).toBe(0);

      // Each section is laid out as it comes near, and the browser keeps what is in view where it was.
      await scrollToFooter(page, viewport.height);
      await expect.poll(() => laidOut(page)).toBe(true);
      expect(await layoutShift(page)).toBe(0);

      // A printout has every section.
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect.poll(() => laidOut(page)).toBe(false);
      await page.emulateMedia({ media: 'print' });
      expect(await laidOut(page)).toBe(true);
    });
  }

  test('other legal texts are laid out whole', async ({ page }) => {
    await page.setViewportSize({ width: 412, height: 823 });
    for (const path of ['/de/privacy-policy', '/th/terms']) {
      await page.goto(path);
      expect(await laidOut(page), path).toBe(true);
    }
  });
});

test('the Thai privacy policy lays out its far sections in idle moments, so a jump to the end moves nothing', async ({
  page,
}) => {
  await page.setViewportSize({ width: 412, height: 823 });
  await page.goto('/th/privacy-policy');
  await waitForHydration(page);
  await expect.poll(() => laidOut(page)).toBe(true);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  // The End key or a scrollbar dragged to the bottom: the footer must stay where the jump put it.
  const tops = await page.evaluate(async () => {
    const footer = document.querySelector('footer') as HTMLElement;
    window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
    const seen: number[] = [];
    for (let frame = 0; frame < 5; frame++) {
      seen.push(Math.round(footer.getBoundingClientRect().bottom));
      await new Promise(requestAnimationFrame);
    }
    return seen;
  });
  expect(tops).toEqual(tops.map(() => 823));
  expect(await layoutShift(page)).toBe(0);
});

// Chrome may paint a page it has parsed only partly, at any tag (seen right after the language
// switcher's opening tag, one load in twenty in Lighthouse runs). Every item of the top line must
// then already sit where the complete page puts it, or the next paint moves it: a layout shift.
const PARTS: [path: string, cuts: string[], items: string[]][] = [
  [
    '/th/contact',
    [
      '<span class="brand__mark" aria-hidden="true"></span>',
      '</a><nav',
      '</nav>',
      '</div><details',
      '<details class="language-switcher">',
    ],
    ['.brand', '.brand__mark', '.main-nav', '.header-account', '.header-account a', '.language-switcher'],
  ],
  ['/th/login', ['</a><details', '<details class="language-switcher">'], ['.brand', '.language-switcher']],
];
for (const width of [412, 800, 1280]) {
  for (const [path, cuts, items] of PARTS) {
    test(`a paint of ${path} parsed only partly puts the header's items where the whole page does (${width} px)`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize({ width, height: 823 });
      // The page without its scripts: the layout as parsed, not as the app makes it.
      const html = (await (await request.get(path)).text()).replace(/<script[\s\S]*?<\/script>/g, '');
      const where = () =>
        page.evaluate(
          (selectors) =>
            selectors.map((selector) => {
              const rect = document.querySelector(selector)?.getBoundingClientRect();
              return rect ? `${selector} at ${Math.round(rect.x)},${Math.round(rect.y)}` : null;
            }),
          items,
        );
      await page.setContent(html);
      const whole = await where();
      for (const cut of cuts) {
        const end = html.indexOf(cut);
        expect(end, cut).toBeGreaterThan(0);
        await page.setContent(html.slice(0, end + cut.length));
        const parsed = await where();
        expect(parsed.filter((item) => item !== null).length, cut).toBeGreaterThan(0);
        expect(
          parsed.filter((item, index) => item !== null && item !== whole[index]),
          `parsed up to ${cut}`,
        ).toEqual([]);
      }
    });
  }
}

for (const width of [360, 1100]) {
  test(`a long brand name gives way to the header's other items (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 823 });
    await page.goto('/de/about');
    const boxes = await page.evaluate(() => {
      const name = document.querySelector('.brand__name') ?? document.querySelector('.brand')?.lastChild;
      if (name) name.textContent = 'Gemeinde Musterstadt am Langen See, Verwaltung';
      const right = (selector: string) => document.querySelector(selector)?.getBoundingClientRect().right ?? 0;
      const left = (selector: string) => document.querySelector(selector)?.getBoundingClientRect().left ?? 0;
      return {
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        brandEnd: right('.brand'),
        signInStart: left('.header-account a'),
        navStart: left('.main-nav'),
        navHeight: document.querySelector('.main-nav')?.getBoundingClientRect().height ?? 0,
      };
    });
    expect(boxes.overflow).toBe(0);
    expect(boxes.brandEnd).toBeLessThanOrEqual(boxes.signInStart);
    if (width > 1024) expect(boxes.brandEnd).toBeLessThanOrEqual(boxes.navStart);
    expect(boxes.navHeight).toBeLessThan(50);
  });
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 412, height: 823 } });

  // The sign-in page has the smallest largest paint of the site: its lead paragraph. A consent
  // prompt that outgrew it became the largest paint, seconds after the page (LCP 2.3 s in Italian).
  for (const language of LANGUAGES) {
    test(`the consent prompt never becomes the largest paint (${language})`, async ({ page }) => {
      await page.goto(`/${language}/login`);
      const prompt = page.locator('.consent-prompt');
      await expect(prompt).toBeVisible();
      const inPrompt = await prompt.evaluate(
        (element) =>
          new Promise<boolean[]>((resolve) => {
            // Two frames after the prompt is shown its paint has been reported.
            requestAnimationFrame(() =>
              requestAnimationFrame(() => {
                new PerformanceObserver((list, observer) => {
                  observer.disconnect();
                  const entries = list.getEntries() as (PerformanceEntry & { element: Element | null })[];
                  resolve(entries.map((entry) => element.contains(entry.element)));
                }).observe({ type: 'largest-contentful-paint', buffered: true });
              }),
            );
          }),
      );
      expect(inPrompt.length).toBeGreaterThan(0);
      expect(inPrompt).not.toContain(true);
    });
  }
});

// A control left with the browser's own font (Arial here) draws Thai text in a face without Thai
// letters: the browser then searches every installed font, 15 to 30 ms of one layout (decision 088).
test('every text after hydration, the chat launcher and the form controls included, is in the page font', async ({
  page,
}) => {
  await page.goto('/th/contact');
  await expect(page.locator('.chat-launcher')).toBeVisible();
  await expect(page.locator('.consent-prompt')).toBeVisible();
  const others = await page.evaluate(() => {
    const font = getComputedStyle(document.documentElement).fontFamily;
    return [...document.querySelectorAll('body *:not(code, script)')]
      .filter((element) => getComputedStyle(element).fontFamily !== font)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
  });
  expect(others).toEqual([]);
});

// Writing <html lang> again, even with the value it has, makes the browser restyle the whole
// document after the paint (decision 088).
test('hydration rewrites nothing of <html> or the head the server wrote; a navigation does', async ({ page }) => {
  await page.addInitScript(() => {
    const writes: string[] = [];
    (window as unknown as { headWrites: string[] }).headWrites = writes;
    const observer = new MutationObserver((records) => {
      // What the parser writes is the server's page, not a rewrite.
      if (document.readyState === 'loading') return;
      for (const record of records) {
        const target = record.target instanceof Element ? record.target : record.target.parentElement;
        if (!target) continue;
        if (target === document.documentElement) {
          if (record.attributeName === 'lang' || record.attributeName === 'dir')
            writes.push(`html ${record.attributeName}`);
        } else if (target.closest('head') && (record.type === 'attributes' || target.nodeName === 'TITLE'))
          writes.push(`${target.nodeName.toLowerCase()} ${record.attributeName ?? 'text'}`);
      }
    });
    observer.observe(document, { attributes: true, childList: true, characterData: true, subtree: true });
    document.addEventListener('DOMContentLoaded', () => observer.takeRecords());
  });
  const writes = () => page.evaluate(() => (window as unknown as { headWrites: string[] }).headWrites);
  await page.goto('/th/contact');
  await waitForHydration(page);
  await expect(page.locator('.chat-launcher')).toBeVisible();
  expect(await writes()).toEqual([]);
  await page.locator('header').getByRole('link', { name: 'เกี่ยวกับเรา' }).click();
  await expect.poll(writes).toContain('title text');
});

test('the cookie policy lists exactly the stored items the code declares', async ({ page }) => {
  await page.goto('/en/cookie-policy');
  const names = await page.locator('tbody th').allInnerTexts();
  expect(names).toEqual(STORAGE_ENTRIES.map((entry) => entry.name));
  await expect(page.locator('tbody tr').first()).toContainText('Local storage');
  await expect(page.locator('tbody tr').nth(1)).toContainText('1 year');
});

test('reading pages caches the language but sets no cookie; choosing one in the footer stores only the declared items', async ({
  page,
}) => {
  await page.goto('/nl/about');
  await waitForHydration(page);
  await page.locator('header').getByRole('link', { name: 'Contact' }).click();
  await expect(page).toHaveURL(/\/nl\/contact$/);
  // The address changes first; the footer's links follow once the contact page (and its texts) is there.
  await expect(page.locator('h1')).toHaveText('Neem contact met ons op');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('lang'))).toBe('nl');
  expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('lang');

  await page.locator('footer').getByRole('link', { name: 'Deutsch' }).click();
  await expect(page).toHaveURL(/\/de\/contact$/);
  expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('de');
  const stored = await page.evaluate(() => Object.keys(localStorage));
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === 'lang')).toMatchObject({ value: 'de', secure: true });
  const declared = (kind: string): string[] => STORAGE_ENTRIES.filter((e) => e.kind === kind).map((e) => e.name);
  expect(stored.every((name) => declared('localStorage').includes(name))).toBe(true);
  expect(cookies.every((cookie) => declared('cookie').includes(cookie.name))).toBe(true);
});

test('the footer names the operator and links to every legal page, the imprint included', async ({ page }) => {
  await page.goto('/de');
  const legal = page.locator('footer nav').first();
  await expect(legal.getByRole('link', { name: 'Impressum' })).toHaveAttribute('href', '/de/imprint');
  await expect(legal.getByRole('link', { name: 'Datenschutzerklärung' })).toHaveAttribute('href', '/de/privacy-policy');
  await expect(page.locator('.site-footer__operator')).toContainText('Your Company');
});
