import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.0, 2.1 and 2.2, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

export async function expectAccessible(page: Page) {
  // A toast fading in has, mid-fade, the contrast of its opacity: axe measures the page once its
  // transitions and finite animations have ended.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  // Legacy mode runs axe in the page itself. The default also opens a blank page to merge the
  // frames' results, about 0.6 s a call for pages that have no frames (decision 248).
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze();
  // A toast may start to fade out while axe runs, after the wait above (one shown a few seconds
  // earlier, on a busy machine): on its way out it has the contrast of its opacity. Such a toast,
  // by then fading or gone, is not a state anyone reads; every other node counts.
  const nodes = violations.flatMap((v) => v.nodes.map((n) => ({ id: v.id, target: n.target.join(' ') })));
  const leaving = await page.evaluate(
    (targets) =>
      targets.map((target) => {
        if (!target.includes('toast')) return false;
        const node = document.querySelector(target);
        return node === null || node.closest('.toast--hiding') !== null;
      }),
    nodes.map((node) => node.target),
  );
  expect(nodes.filter((_, i) => !leaving[i]).map((node) => `${node.id}: ${node.target}`)).toEqual([]);
}

/** Console errors and warnings (hydration mismatches among them) and uncaught errors of a page. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/**
 * How many GET requests the page has sent for `path` so far: a page that loads its list once must
 * not ask for it again with every render.
 */
export function countGets(page: Page, path: string): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname === path) count++;
  });
  return () => count;
}

/**
 * The Intl formatters (by kind) the page makes on its main thread before it has hydrated. The first
 * one costs Chromium 25 to 60 ms, which a prerendered page avoids by carrying what it formatted
 * (src/client/lib/formats.ts). Plural rules are cheap and i18next needs them: not counted. Call before
 * the page loads; read the list with `intlBeforeHydration`.
 */
export async function watchIntl(page: Page) {
  await page.addInitScript(() => {
    const made: string[] = [];
    Object.assign(window, { intlBeforeHydration: made });
    const intl = Intl as unknown as Record<string, object>;
    for (const kind of [
      'Collator',
      'DateTimeFormat',
      'DisplayNames',
      'ListFormat',
      'NumberFormat',
      'RelativeTimeFormat',
    ]) {
      intl[kind] = new Proxy(intl[kind] as object, {
        construct(target, args) {
          if (document.documentElement.dataset.hydrated !== 'true') made.push(kind);
          return Reflect.construct(target as new (...a: unknown[]) => object, args);
        },
        apply(target, self, args) {
          if (document.documentElement.dataset.hydrated !== 'true') made.push(kind);
          return Reflect.apply(target as (...a: unknown[]) => unknown, self, args);
        },
      });
    }
  });
}

export function intlBeforeHydration(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { intlBeforeHydration: string[] }).intlBeforeHydration);
}

/** Resolves once React has hydrated the page (HydratedMark in src/client/app/layout/Page.tsx marks the document). */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

/**
 * The page's cumulative layout shift so far (or since `since`, a time on the page's clock), plus
 * any within the next `ms` milliseconds. As in CLS, shifts right after the visitor's input are left
 * out, and so are shifts of elements inside `ignore` (a selector).
 */
export function layoutShift(
  page: Page,
  options: { ms?: number; ignore?: string; since?: number } = {},
): Promise<number> {
  return page.evaluate(
    ({ ms, ignore, since }) =>
      new Promise<number>((resolve) => {
        type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node?: Node | null }[] };
        const counted = (shift: Shift) =>
          !shift.hadRecentInput &&
          shift.startTime >= since &&
          !(
            ignore !== null &&
            shift.sources.every((source) => source.node instanceof Element && source.node.closest(ignore) !== null)
          );
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Shift[]) if (counted(entry)) total += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), ms);
      }),
    { ms: options.ms ?? 500, ignore: options.ignore ?? null, since: options.since ?? 0 },
  );
}
