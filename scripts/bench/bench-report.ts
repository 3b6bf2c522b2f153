// What `npm run bench` makes of its Lighthouse runs: per page the median and the worst run of each
// figure, and which pages break a budget in their worst run. Kept apart from the runs themselves so
// that it can be tested without a browser.

/** The four Lighthouse categories, in the order the tables show them. */
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

/** One Lighthouse run of one page. Times in milliseconds. */
export interface RunResult {
  scores: Record<Category, number>;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** The elements that moved, with each shift's score, when CLS is above 0 (what to look at first). */
  shifted: string[];
  /** The main thread's tasks of 50 ms or more (simulated), each as "script or kind, length at start". */
  longTasks: string[];
  /** Script transferred, in bytes. */
  jsBytes: number;
  /** The page's HTML transferred, headers included, in bytes. */
  htmlBytes: number;
  /** Scripts whose request started before the first paint the browser reported (observed, not simulated). */
  scriptsBeforeFcp: number;
  /** The same before the observed largest paint. */
  scriptsBeforeLcp: number;
  /** The element of the largest paint, and when the first paint, the largest and the first script came (observed, ms after the page's request). */
  largestPaint: string;
  /** Translation files requested before the observed first paint. */
  textsBeforeFcp: number;
}

/**
 * The site's budgets (issue 2, "Budgets"), held by the worst run of every page: every category
 * 100, FCP at most 0.8 s, LCP at most 1.0 s, TBT at most 50 ms, no layout shift, no translation
 * file before the first paint. No script may be requested before the largest paint either: the
 * simulation would count it as needed for the paint (decision 050). The HTML must come in the
 * first round trip of a new connection: ten TCP segments of 1,460 bytes, the initial congestion
 * window of RFC 6928 and of Lighthouse's simulation; one byte more costs a round trip (150 ms in
 * the simulation) before the first paint (decision 085).
 */
export const BUDGETS = {
  fcp: 800,
  lcp: 1_000,
  tbt: 50,
  cls: 0,
  score: 100,
  htmlBytes: 10 * 1_460,
} as const;

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** A figure over several runs: the median and the worst (highest for times, lowest for scores). */
export interface Spread {
  median: number;
  worst: number;
}

export interface PageSummary {
  page: string;
  /** Whether search engines may list it; a noindex page loses SEO points by design, so that budget skips it. */
  indexed: boolean;
  runs: number;
  scores: Record<Category, Spread>;
  fcp: Spread;
  lcp: Spread;
  tbt: Spread;
  cls: Spread;
  jsBytes: number;
  /** The most HTML any run transferred. */
  htmlBytes: number;
  scriptsBeforeLcp: number;
  textsBeforeFcp: number;
}

const spread = (values: number[], worst: (values: number[]) => number): Spread => ({
  median: median(values),
  worst: worst(values),
});
const highest = (values: number[]) => Math.max(...values);
const lowest = (values: number[]) => Math.min(...values);

export function summarizePage(page: string, runs: readonly RunResult[], indexed = true): PageSummary {
  const pick = (get: (run: RunResult) => number) => runs.map(get);
  return {
    page,
    indexed,
    runs: runs.length,
    scores: Object.fromEntries(
      CATEGORIES.map((category) => [
        category,
        spread(
          pick((run) => run.scores[category]),
          lowest,
        ),
      ]),
    ) as Record<Category, Spread>,
    fcp: spread(
      pick((run) => run.fcp),
      highest,
    ),
    lcp: spread(
      pick((run) => run.lcp),
      highest,
    ),
    tbt: spread(
      pick((run) => run.tbt),
      highest,
    ),
    cls: spread(
      pick((run) => run.cls),
      highest,
    ),
    jsBytes: median(pick((run) => run.jsBytes)),
    htmlBytes: highest(pick((run) => run.htmlBytes)),
    scriptsBeforeLcp: highest(pick((run) => run.scriptsBeforeLcp)),
    textsBeforeFcp: highest(pick((run) => run.textsBeforeFcp)),
  };
}

/** A budget and the pages whose worst run breaks it, with that run's figure as shown. */
export interface BudgetVerdict {
  label: string;
  over: { page: string; value: string }[];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const millis = (ms: number) => `${Math.round(ms)} ms`;

export function budgetVerdicts(pages: readonly PageSummary[]): BudgetVerdict[] {
  const check = (
    label: string,
    breaks: (page: PageSummary) => boolean,
    shown: (page: PageSummary) => string,
  ): BudgetVerdict => ({
    label,
    over: pages.filter(breaks).map((page) => ({ page: page.page, value: shown(page) })),
  });
  return [
    ...CATEGORIES.map((category) =>
      check(
        `${category} ${BUDGETS.score}`,
        (page) => page.scores[category].worst < BUDGETS.score && (category !== 'seo' || page.indexed),
        (page) => String(page.scores[category].worst),
      ),
    ),
    check(
      `FCP ≤ ${seconds(BUDGETS.fcp)}`,
      (page) => page.fcp.worst > BUDGETS.fcp,
      (page) => seconds(page.fcp.worst),
    ),
    check(
      `LCP ≤ ${seconds(BUDGETS.lcp)}`,
      (page) => page.lcp.worst > BUDGETS.lcp,
      (page) => seconds(page.lcp.worst),
    ),
    check(
      `TBT ≤ ${BUDGETS.tbt} ms`,
      (page) => page.tbt.worst > BUDGETS.tbt,
      (page) => millis(page.tbt.worst),
    ),
    check(
      `CLS ${BUDGETS.cls}`,
      (page) => page.cls.worst > BUDGETS.cls,
      (page) => page.cls.worst.toFixed(3),
    ),
    check(
      `HTML ≤ ${BUDGETS.htmlBytes.toLocaleString('en')} bytes (the first round trip)`,
      (page) => page.htmlBytes > BUDGETS.htmlBytes,
      (page) => `${page.htmlBytes.toLocaleString('en')} bytes`,
    ),
    check(
      'no script before the largest paint',
      (page) => page.scriptsBeforeLcp > 0,
      (page) => `${page.scriptsBeforeLcp} script(s)`,
    ),
    check(
      'no translation file before the first paint',
      (page) => page.textsBeforeFcp > 0,
      (page) => `${page.textsBeforeFcp} file(s)`,
    ),
  ];
}

const pad = (text: string, width: number) => text.padStart(width);
const pair = (spread: Spread, format: (value: number) => string) => `${format(spread.median)} ${format(spread.worst)}`;

/** The per-page table: each figure as "median worst". */
export function pageTable(pages: readonly PageSummary[]): string[] {
  const width = Math.max(20, ...pages.map((page) => page.page.length + 1));
  const score = (value: number) => pad(String(value), 3);
  const time = (ms: number) => pad((ms / 1000).toFixed(2), 4);
  const block = (ms: number) => pad(String(Math.round(ms)), 3);
  const header = [
    'page'.padEnd(width),
    '   perf',
    '   a11y',
    '   best',
    '    seo',
    '    FCP (s)',
    '    LCP (s)',
    '  TBT (ms)',
    '  CLS',
    '  JS KB',
    ' HTML KB',
    ' early',
  ].join('');
  const legend = `${''.padEnd(width)}${'  med low'.repeat(4)}${'   med worst'.repeat(2)}  med worst  worst   wire    worst  js tx`;
  const rows = pages.map((page) =>
    [
      page.page.padEnd(width),
      ...CATEGORIES.map((category) => `  ${pair(page.scores[category], score)}`),
      `   ${pair(page.fcp, time)}`,
      `   ${pair(page.lcp, time)}`,
      `    ${pair(page.tbt, block)}`,
      pad(page.cls.worst.toFixed(3), 7),
      pad((page.jsBytes / 1024).toFixed(1), 7),
      pad((page.htmlBytes / 1024).toFixed(1), 8),
      pad(`${page.scriptsBeforeLcp} ${page.textsBeforeFcp}`, 7),
    ].join(''),
  );
  return [header, legend, ...rows];
}

/** The budget summary: for each budget, how many pages hold it in their worst run, and which do not. */
export function budgetLines(pages: readonly PageSummary[]): string[] {
  const lines: string[] = [];
  for (const verdict of budgetVerdicts(pages)) {
    const held = pages.length - verdict.over.length;
    const head = `${verdict.label.padEnd(44)} ${held} of ${pages.length} pages`;
    lines.push(
      verdict.over.length === 0
        ? `  ✓ ${head}`
        : `  ✗ ${head}; over: ${verdict.over.map((o) => `${o.page} (${o.value})`).join(', ')}`,
    );
  }
  return lines;
}

/** "1 h 02 min", "4 min 05 s" or "12 s". */
export function duration(ms: number): string {
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(s).padStart(2, '0')} s`;
  return `${s} s`;
}
