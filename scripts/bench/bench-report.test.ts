import { describe, expect, it } from 'vitest';
import { budgetLines, budgetVerdicts, duration, median, type RunResult, summarizePage } from './bench-report.ts';

const run = (overrides: Partial<RunResult> = {}): RunResult => ({
  scores: { performance: 100, accessibility: 100, 'best-practices': 100, seo: 100 },
  fcp: 650,
  lcp: 700,
  tbt: 10,
  cls: 0,
  shifted: [],
  longTasks: [],
  jsBytes: 100_000,
  htmlBytes: 9_000,
  scriptsBeforeFcp: 0,
  scriptsBeforeLcp: 0,
  textsBeforeFcp: 0,
  largestPaint: 'h1 at 650 ms (first paint 650 ms, first script 700 ms)',
  ...overrides,
});

describe('bench report', () => {
  it('takes the median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('keeps the median and the worst run of each figure: highest time, lowest score', () => {
    const page = summarizePage('/en', [
      run({ fcp: 600, tbt: 0 }),
      run({ fcp: 1_050, tbt: 90, scores: { performance: 97, accessibility: 100, 'best-practices': 100, seo: 100 } }),
      run({ fcp: 640, tbt: 20 }),
    ]);
    expect(page.fcp).toEqual({ median: 640, worst: 1_050 });
    expect(page.tbt).toEqual({ median: 20, worst: 90 });
    expect(page.scores.performance).toEqual({ median: 100, worst: 97 });
    expect(page.scores.seo).toEqual({ median: 100, worst: 100 });
  });

  it('names every page whose worst run breaks a budget, and no other', () => {
    const good = summarizePage('/en', [run(), run()]);
    const slow = summarizePage('/th/login', [run(), run({ lcp: 1_200, tbt: 51 })]);
    const early = summarizePage('/fr', [run({ scriptsBeforeLcp: 2 })]);
    const verdicts = Object.fromEntries(budgetVerdicts([good, slow, early]).map((v) => [v.label, v.over]));
    expect(verdicts['LCP ≤ 1.00 s']).toEqual([{ page: '/th/login', value: '1.20 s' }]);
    expect(verdicts['TBT ≤ 50 ms']).toEqual([{ page: '/th/login', value: '51 ms' }]);
    expect(verdicts['FCP ≤ 0.80 s']).toEqual([]);
    expect(verdicts['no script before the largest paint']).toEqual([{ page: '/fr', value: '2 script(s)' }]);
    expect(verdicts['performance 100']).toEqual([]);
    const heavy = summarizePage('/th/privacy-policy', [run(), run({ htmlBytes: 14_601 })]);
    const html = budgetVerdicts([good, heavy]).find((v) => v.label.startsWith('HTML'));
    expect(html?.label).toBe('HTML ≤ 14,600 bytes (the first round trip)');
    expect(html?.over).toEqual([{ page: '/th/privacy-policy', value: '14,601 bytes' }]);
    // A noindex page scores lower on SEO by design; only indexed pages are held to it.
    const noSearch = { performance: 100, accessibility: 100, 'best-practices': 100, seo: 66 };
    const seo = budgetVerdicts([
      summarizePage('/en/validation', [run({ scores: noSearch })], false),
      summarizePage('/en/about', [run({ scores: noSearch })]),
    ]).find((v) => v.label === 'seo 100');
    expect(seo?.over).toEqual([{ page: '/en/about', value: '66' }]);
    // A budget exactly met is held.
    expect(
      budgetVerdicts([summarizePage('/de', [run({ fcp: 800, lcp: 1_000, tbt: 50, htmlBytes: 14_600 })])]).flatMap(
        (v) => v.over,
      ),
    ).toEqual([]);
  });

  it('prints a line per budget with the pages over it', () => {
    const lines = budgetLines([summarizePage('/en', [run()]), summarizePage('/it', [run({ fcp: 900 })])]);
    expect(lines.find((line) => line.includes('FCP'))).toMatch(
      /✗ FCP ≤ 0\.80 s\s+1 of 2 pages; over: \/it \(0\.90 s\)/,
    );
    expect(lines.find((line) => line.includes('TBT'))).toMatch(/✓ TBT ≤ 50 ms\s+2 of 2 pages$/);
  });

  it('writes durations for people', () => {
    expect(duration(12_400)).toBe('12 s');
    expect(duration(245_000)).toBe('4 min 05 s');
    expect(duration(3_720_000)).toBe('1 h 02 min');
  });
});
