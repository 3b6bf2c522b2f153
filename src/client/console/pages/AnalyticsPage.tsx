import { type FormEvent, lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleCall } from '#client/console/api.ts';
import type { ChartSeries } from '#client/console/Chart.tsx';
import { zipOf } from '#client/console/export/zip.ts';
import { useFormat } from '#client/console/format.ts';
import { ConsoleLink, Loading } from '#client/console/ui.tsx';
import { useTitle } from '#client/console/use-title.ts';
import { navigate } from '#client/lib/address.tsx';
import { ScrollTable } from '#client/lib/ScrollTable.tsx';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import {
  ANALYTICS_API,
  ANALYTICS_PERIODS,
  type AnalyticsAnswer,
  type AnalyticsDimension,
} from '#common/analytics-api.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { LANGUAGES } from '#common/languages.ts';
import type { MeAnswer } from '#common/staff-api.ts';
import { AnalyticsMail } from './analytics/AnalyticsMail.tsx';
import { analyticsFiles, breakdownFile, bucketsOf, download } from './analytics/analytics-files.ts';
import { type AnalyticsView, analyticsPath, queryOfView, viewOf, withFilter } from './analytics/analytics-query.ts';
import { Breakdown } from './analytics/Breakdown.tsx';
import { ContactActivity } from './analytics/ContactActivity.tsx';
import { CountrySource } from './analytics/CountrySource.tsx';
import { Headline } from './analytics/Headline.tsx';
import { useAnalyticsLabels } from './analytics/labels.ts';
import { RightNow } from './analytics/RightNow.tsx';
import { ChatQuality } from './ChatQuality.tsx';

// uPlot comes with the chart, only to those who open this page.
const Chart = lazy(() => import('#client/console/Chart.tsx'));

/** Each language its colour (see console.css, with dark-mode values) and its dash, so colour is not the only cue. */
const LANGUAGE_DASH: Record<string, number[] | undefined> = {
  en: undefined,
  it: [10, 4],
  th: [2, 3],
  fr: [12, 3, 2, 3],
  de: [5, 5],
  nl: [1, 5],
};
const TOTAL_DASH = [6, 3, 1, 3];
const PREVIOUS_DASH = [6, 4];

/** The breakdowns, in pairs that belong together on a wide screen. */
const GROUPS: AnalyticsDimension[][] = [
  ['page', 'entry', 'exit'],
  ['language', 'browserLanguage', 'country'],
  ['referrer', 'source', 'campaign'],
  ['device', 'browser', 'system'],
];

function ChartWithTable({
  title,
  id,
  buckets,
  hourly,
  series,
  firstColumn,
  rowLabel,
}: {
  title: string;
  id: string;
  buckets: string[];
  hourly: boolean;
  series: ChartSeries[];
  firstColumn: string;
  rowLabel: (bucket: string) => string;
}) {
  const { t, i18n } = useTranslation('console');
  const format = useFormat();
  return (
    <section className="chart" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <div className="chart__layout">
        <figure className="chart__figure">
          <Suspense fallback={<div className="chart__canvas chart__canvas--loading" />}>
            <Chart
              label={`${title}. ${t('analytics.chartNote')}`}
              buckets={buckets}
              hourly={hourly}
              series={series}
              language={i18n.language}
            />
          </Suspense>
          <figcaption>
            <ul className="chart__legend">
              {series.map((line) => (
                <li key={line.name}>
                  <svg className="chart__swatch" width="32" height="6" aria-hidden="true">
                    <line
                      x1="0"
                      y1="3"
                      x2="32"
                      y2="3"
                      strokeWidth="3"
                      style={{ stroke: `var(${line.color})` }}
                      strokeDasharray={line.dash?.join(' ')}
                    />
                  </svg>
                  {line.name}
                </li>
              ))}
            </ul>
          </figcaption>
        </figure>
        <ScrollTable className="chart__table" caption={t('analytics.tableCaption', { title })}>
          <thead>
            <tr>
              <th scope="col">{firstColumn}</th>
              {series.map((line) => (
                <th scope="col" key={line.name}>
                  {line.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {buckets.map((bucket, index) => (
              <tr key={bucket}>
                <th scope="row">{rowLabel(bucket)}</th>
                {series.map((line) => (
                  <td key={line.name}>{format.number(line.values[index] ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </div>
    </section>
  );
}

/** Headline numbers, charts and breakdowns of the visits, filtered by the address; with exports. */
export default function AnalyticsPage({ query, me }: { query: URLSearchParams; me: MeAnswer }) {
  const { t, i18n } = useTranslation('console');
  const { t: te } = useTranslation('errors');
  const labels = useAnalyticsLabels();
  const format = useFormat();
  const errorToast = useErrorToast();
  const view = useMemo(() => viewOf(query), [query]);
  const apiQuery = queryOfView(view);
  const [range, setRange] = useState({ from: view.from ?? '', to: view.to ?? '' });
  const [answer, setAnswer] = useState<AnalyticsAnswer | null>(null);
  const [problem, setProblem] = useState<ErrorCode | null>(null);
  useTitle(t('analytics.title'));

  useEffect(() => {
    let current = true;
    setAnswer(null);
    setProblem(null);
    void consoleCall<AnalyticsAnswer>(`${ANALYTICS_API.dashboard}${apiQuery}`).then((result) => {
      if (!current) return;
      if (result.ok) {
        setAnswer(result.data);
        setRange({ from: result.data.from, to: result.data.to });
      } else if (result.fields?.from || result.fields?.to) setProblem(result.fields.to ?? result.fields.from ?? null);
      else void errorToast(result.code);
    });
    return () => {
      current = false;
    };
  }, [apiQuery]);

  const charts = useMemo(() => {
    if (!answer) return null;
    const hourly = answer.bucket === 'hour';
    const buckets = bucketsOf(answer.from, answer.to, hourly);
    const previous = bucketsOf(answer.previousFrom, answer.previousTo, hourly);
    const valuesOf = (points: AnalyticsAnswer['series'], keys: string[]) =>
      keys.map((bucket) => points.find((point) => point.bucket === bucket)?.visitors ?? 0);
    const visitors: ChartSeries[] = [
      { name: t('analytics.currentPeriod'), values: valuesOf(answer.series, buckets), color: '--chart-current' },
      {
        name: t('analytics.previousPeriod'),
        values: valuesOf(answer.previousSeries, previous),
        color: '--chart-previous',
        dash: PREVIOUS_DASH,
      },
    ];
    const languages = LANGUAGES.filter((code) => answer.languages.some((row) => row.language === code));
    const views: ChartSeries[] = [
      ...languages.map((code) => ({
        name: labels.value('language', code),
        values: buckets.map(
          (bucket) => answer.languages.find((row) => row.bucket === bucket && row.language === code)?.views ?? 0,
        ),
        color: `--chart-${code}`,
        dash: LANGUAGE_DASH[code],
      })),
      {
        name: t('analytics.total'),
        values: buckets.map((bucket) => answer.series.find((point) => point.bucket === bucket)?.views ?? 0),
        color: '--chart-total',
        dash: TOTAL_DASH,
      },
    ];
    return { hourly, buckets, visitors, views };
  }, [answer, t, i18n.language]);

  const hour = new Intl.DateTimeFormat(i18n.language, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
  const rowLabel = (bucket: string) =>
    bucket.length > 10 ? hour.format(new Date(`${bucket}:00:00Z`)) : format.day(bucket);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    navigate(analyticsPath({ ...view, period: null, ...range }));
  };
  const periodPath = (period: AnalyticsView['period']) => analyticsPath({ ...view, period, from: null, to: null });
  const exportAll = () => {
    if (!answer) return;
    const files = analyticsFiles(answer, t, labels);
    download(`analytics-${answer.from}-${answer.to}.zip`, zipOf(files), 'application/zip');
  };
  const exportOne = (dimension: AnalyticsDimension) => {
    if (!answer) return;
    const file = breakdownFile(answer, dimension, t, labels);
    download(`analytics-${answer.from}-${answer.to}-${file.name}`, file.text, 'text/csv;charset=utf-8');
  };
  const filters = Object.entries(view.filters) as [AnalyticsDimension, string][];

  return (
    <div className="analytics">
      <h1>{t('analytics.title')}</h1>
      <p className="console-lead">{t('analytics.consent')}</p>
      {answer?.estimated && <p className="console-note">{t('analytics.estimated')}</p>}
      {answer?.posthogHost && (
        <p className="console-note">
          {t('analytics.posthog', { host: answer.posthogHost })}{' '}
          <a href={answer.posthogHost} rel="noreferrer">
            {t('analytics.openPosthog')}
          </a>
        </p>
      )}
      <RightNow />
      <form className="filters" aria-label={t('analytics.range')} onSubmit={apply}>
        <label>
          <span>{t('analytics.from')}</span>
          <input
            type="date"
            required
            value={range.from}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'range-error' : undefined}
            onChange={(event) => setRange((current) => ({ ...current, from: event.target.value }))}
          />
        </label>
        <label>
          <span>{t('analytics.to')}</span>
          <input
            type="date"
            required
            value={range.to}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'range-error' : undefined}
            onChange={(event) => setRange((current) => ({ ...current, to: event.target.value }))}
          />
        </label>
        <div className="filters__actions">
          <button type="submit" className="button button--small">
            {t('analytics.apply')}
          </button>
        </div>
        <p className="filters__presets">
          {ANALYTICS_PERIODS.map((period) => (
            <ConsoleLink key={period} to={periodPath(period)} current={view.period === period}>
              {t(`analytics.periods.${period}`)}
            </ConsoleLink>
          ))}
        </p>
      </form>
      {problem && (
        <p id="range-error" className="field__error" role="alert">
          {te(problem)}
        </p>
      )}
      <p id="filter-hint" className="console-note">
        {t('analytics.filterHint')}
      </p>
      {filters.length > 0 && (
        <ul className="active-filters" aria-label={t('analytics.activeFilters')}>
          {filters.map(([dimension, value]) => (
            <li key={dimension}>
              <button
                type="button"
                className="button button--small button--secondary"
                aria-label={t('analytics.removeFilter', {
                  name: labels.column(dimension),
                  value: labels.value(dimension, value),
                })}
                onClick={() => navigate(analyticsPath(withFilter(view, dimension, null)))}
              >
                {labels.column(dimension)}: {labels.value(dimension, value)} ✕
              </button>
            </li>
          ))}
          {filters.length > 1 && (
            <li>
              <ConsoleLink to={analyticsPath({ ...view, filters: {} })}>{t('analytics.clearFilters')}</ConsoleLink>
            </li>
          )}
        </ul>
      )}
      {!answer || !charts ? (
        !problem && <Loading />
      ) : (
        <>
          <p className="console-note">
            {t('analytics.periodNote', {
              from: format.day(answer.from),
              to: format.day(answer.to),
              previousFrom: format.day(answer.previousFrom),
              previousTo: format.day(answer.previousTo),
              zone: answer.timeZone,
            })}
          </p>
          {answer.headline.views === 0 && (
            <p className="console-empty" role="status">
              {t('analytics.empty')}
            </p>
          )}
          <Headline current={answer.headline} previous={answer.previousHeadline} />
          <p className="analytics__export">
            <button type="button" className="button button--small" onClick={exportAll}>
              {t('analytics.exportAll')}
            </button>
          </p>
          <ChartWithTable
            id="visitors"
            title={t(charts.hourly ? 'analytics.visitorsPerHour' : 'analytics.visitorsPerDay')}
            buckets={charts.buckets}
            hourly={charts.hourly}
            series={charts.visitors}
            firstColumn={t(charts.hourly ? 'analytics.hour' : 'analytics.day')}
            rowLabel={rowLabel}
          />
          <ChartWithTable
            id="views"
            title={t(charts.hourly ? 'analytics.viewsPerHour' : 'analytics.viewsPerDay')}
            buckets={charts.buckets}
            hourly={charts.hourly}
            series={charts.views}
            firstColumn={t(charts.hourly ? 'analytics.hour' : 'analytics.day')}
            rowLabel={rowLabel}
          />
          {GROUPS.map((group) => (
            <div className="tops" key={group[0]}>
              {group.map((dimension) => (
                <Breakdown
                  key={dimension}
                  dimension={dimension}
                  rows={answer.breakdowns[dimension]}
                  view={view}
                  labels={labels}
                  onExport={() => exportOne(dimension)}
                  note={dimension === 'country' ? <CountrySource /> : undefined}
                />
              ))}
            </div>
          ))}
          <ContactActivity answer={answer} buckets={charts.buckets} rowLabel={rowLabel} />
          <section className="chart" aria-labelledby="unconsented-title">
            <h2 id="unconsented-title">{t('analytics.unconsentedTitle')}</h2>
            <p>{t('analytics.unconsentedText', { count: answer.unconsented.views })}</p>
            {answer.unconsented.pages.length > 0 && (
              <ScrollTable caption={t('analytics.unconsentedCaption')}>
                <thead>
                  <tr>
                    <th scope="col">{t('analytics.page')}</th>
                    <th scope="col">{t('analytics.language')}</th>
                    <th scope="col">{t('analytics.viewsColumn')}</th>
                  </tr>
                </thead>
                <tbody>
                  {answer.unconsented.pages.map((row) => (
                    <tr key={`${row.path} ${row.language}`}>
                      <th scope="row" dir="auto">
                        {row.path}
                      </th>
                      <td>{labels.value('language', row.language)}</td>
                      <td>{format.number(row.views)}</td>
                    </tr>
                  ))}
                </tbody>
              </ScrollTable>
            )}
          </section>
        </>
      )}
      <ChatQuality />
      {me.role === 'admin' && <AnalyticsMail me={me} />}
    </div>
  );
}
