import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ANALYTICS_DIMENSIONS, type AnalyticsAnswer, type AnalyticsDimension } from '#common/analytics-api.ts';
import { analyticsFiles, bucketsOf } from './analytics-files.ts';
import type { AnalyticsLabels } from './labels.ts';

const t = ((key: string) => key) as unknown as TFunction<'console'>;
const labels: AnalyticsLabels = {
  title: (dimension) => `title ${dimension}`,
  column: (dimension) => `column ${dimension}`,
  value: (dimension, key) => (key === '' ? `none ${dimension}` : key),
};
const headline = { visitors: 0, visits: 0, views: 0, viewsPerVisit: null, bounceRate: null, visitSeconds: null };

describe('the analytics files', () => {
  it('lists every hour of a day and every day of a range, across a month', () => {
    const hours = bucketsOf('2026-10-25', '2026-10-25', true);
    expect(hours).toHaveLength(24);
    expect([hours[0], hours[23]]).toEqual(['2026-10-25T00', '2026-10-25T23']);
    expect(bucketsOf('2026-10-30', '2026-11-02', false)).toEqual([
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
    ]);
  });

  it('puts each day beside the same day of the previous period, and zeros where nothing happened', () => {
    const answer: AnalyticsAnswer = {
      from: '2026-11-02',
      to: '2026-11-03',
      previousFrom: '2026-10-31',
      previousTo: '2026-11-01',
      timeZone: 'UTC',
      bucket: 'day',
      filters: {},
      estimated: false,
      headline: {
        ...headline,
        visitors: 3,
        visits: 4,
        views: 5,
        viewsPerVisit: 1.25,
        bounceRate: 0.5,
        visitSeconds: 30,
      },
      previousHeadline: headline,
      series: [{ bucket: '2026-11-03', visitors: 3, visits: 4, views: 5 }],
      previousSeries: [{ bucket: '2026-10-31', visitors: 1, visits: 1, views: 2 }],
      languages: [{ bucket: '2026-11-03', language: 'th', visitors: 3, views: 5 }],
      breakdowns: Object.fromEntries(ANALYTICS_DIMENSIONS.map((name) => [name, []])) as unknown as Record<
        AnalyticsDimension,
        []
      >,
      contact: [],
      unconsented: { views: 0, pages: [] },
      posthogHost: null,
    };
    answer.breakdowns.referrer = [{ key: '', visitors: 2, visits: 2, views: 2 }];
    const files = analyticsFiles(answer, t, labels);
    expect(files.map((file) => file.name)).toEqual([
      'headline.csv',
      'chart.csv',
      'languages-chart.csv',
      ...ANALYTICS_DIMENSIONS.map((name) => `${name}.csv`),
      'contact-and-chat.csv',
      'without-consent.csv',
    ]);
    const text = (name: string) =>
      files
        .find((file) => file.name === name)
        ?.text.replace('\uFEFF', '')
        .split('\r\n');
    expect(text('chart.csv')?.slice(1, 3)).toEqual([
      '2026-11-02,0,0,0,2026-10-31,1,2',
      '2026-11-03,3,4,5,2026-11-01,0,0',
    ]);
    expect(text('headline.csv')?.[6]).toBe('analytics.headline.visitSeconds,30,');
    expect(text('referrer.csv')?.slice(0, 2)).toEqual([
      'column referrer,analytics.visitorsColumn,analytics.visitsColumn,analytics.viewsColumn',
      'none referrer,2,2,2',
    ]);
    expect(text('languages-chart.csv')?.slice(0, 3)).toEqual(['analytics.day,th', '2026-11-02,0', '2026-11-03,5']);
  });
});
