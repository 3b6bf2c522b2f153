import type { TFunction } from 'i18next';
import { toCsv } from '#client/console/export/csv.ts';
import { ANALYTICS_DIMENSIONS, type AnalyticsAnswer, type AnalyticsDimension } from '#common/analytics-api.ts';
import { HEADLINE_MEASURES } from '#common/analytics-format.ts';
import type { AnalyticsLabels } from './labels.ts';

export interface ExportFile {
  name: string;
  text: string;
}

/** Every hour of a day, or every day of a range: a bucket without page views is a zero, not a gap. */
export function bucketsOf(from: string, to: string, hourly: boolean): string[] {
  if (hourly) return Array.from({ length: 24 }, (_, hour) => `${from}T${String(hour).padStart(2, '0')}`);
  const days: string[] = [];
  for (let day = Date.parse(`${from}T00:00:00Z`); day <= Date.parse(`${to}T00:00:00Z`); day += 86_400_000) {
    days.push(new Date(day).toISOString().slice(0, 10));
  }
  return days;
}

/** One breakdown as CSV: the value as the page names it, and its counts. */
export function breakdownFile(
  answer: AnalyticsAnswer,
  dimension: AnalyticsDimension,
  t: TFunction<'console'>,
  labels: AnalyticsLabels,
): ExportFile {
  return {
    name: `${dimension}.csv`,
    text: toCsv([
      [
        labels.column(dimension),
        t('analytics.visitorsColumn'),
        t('analytics.visitsColumn'),
        t('analytics.viewsColumn'),
      ],
      ...answer.breakdowns[dimension].map((row) => [
        labels.value(dimension, row.key),
        row.visitors,
        row.visits,
        row.views,
      ]),
    ]),
  };
}

/**
 * Every table of the page as CSV files, headers in the console's language: the headline numbers
 * with the previous period, the chart's series (each hour or day, the previous period's beside it),
 * page views per language, each breakdown, contact messages and chat conversations, and the page
 * views counted without consent.
 */
export function analyticsFiles(
  answer: AnalyticsAnswer,
  t: TFunction<'console'>,
  labels: AnalyticsLabels,
): ExportFile[] {
  const hourly = answer.bucket === 'hour';
  const buckets = bucketsOf(answer.from, answer.to, hourly);
  const previous = bucketsOf(answer.previousFrom, answer.previousTo, hourly);
  const point = (series: AnalyticsAnswer['series'], bucket: string | undefined) =>
    series.find((row) => row.bucket === bucket);
  const languages = [...new Set(answer.languages.map((row) => row.language))].sort();
  return [
    {
      name: 'headline.csv',
      text: toCsv([
        [t('analytics.measure'), t('analytics.currentPeriod'), t('analytics.previousPeriod')],
        ...HEADLINE_MEASURES.map((measure) => [
          t(`analytics.headline.${measure}`),
          answer.headline[measure],
          answer.previousHeadline[measure],
        ]),
      ]),
    },
    {
      name: 'chart.csv',
      text: toCsv([
        [
          t(hourly ? 'analytics.hour' : 'analytics.day'),
          t('analytics.visitorsColumn'),
          t('analytics.visitsColumn'),
          t('analytics.viewsColumn'),
          t('analytics.previousDay'),
          t('analytics.previousVisitors'),
          t('analytics.previousViews'),
        ],
        ...buckets.map((bucket, index) => {
          const now = point(answer.series, bucket);
          const before = point(answer.previousSeries, previous[index]);
          return [
            bucket,
            now?.visitors ?? 0,
            now?.visits ?? 0,
            now?.views ?? 0,
            previous[index] ?? null,
            before?.visitors ?? 0,
            before?.views ?? 0,
          ];
        }),
      ]),
    },
    {
      name: 'languages-chart.csv',
      text: toCsv([
        [t(hourly ? 'analytics.hour' : 'analytics.day'), ...languages.map((code) => labels.value('language', code))],
        ...buckets.map((bucket) => [
          bucket,
          ...languages.map(
            (code) => answer.languages.find((row) => row.bucket === bucket && row.language === code)?.views ?? 0,
          ),
        ]),
      ]),
    },
    ...ANALYTICS_DIMENSIONS.map((dimension) => breakdownFile(answer, dimension, t, labels)),
    {
      name: 'contact-and-chat.csv',
      text: toCsv([
        [
          t(hourly ? 'analytics.hour' : 'analytics.day'),
          t('analytics.messagesColumn'),
          t('analytics.conversationsColumn'),
          t('analytics.answeredColumn'),
          t('analytics.firstReplySecondsColumn'),
        ],
        ...buckets.map((bucket) => {
          const row = answer.contact.find((item) => item.bucket === bucket);
          return [
            bucket,
            row?.messages ?? 0,
            row?.conversations ?? 0,
            row?.answered ?? 0,
            row?.medianFirstReplySeconds ?? null,
          ];
        }),
      ]),
    },
    {
      name: 'without-consent.csv',
      text: toCsv([
        [t('analytics.page'), t('analytics.language'), t('analytics.viewsColumn')],
        ...answer.unconsented.pages.map((row) => [row.path, labels.value('language', row.language), row.views]),
      ]),
    },
  ];
}

/** Hands a file to the browser to save. */
export function download(name: string, data: BlobPart, type: string) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
