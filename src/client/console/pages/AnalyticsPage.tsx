import { type FormEvent, lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleCall, queryOf } from '#client/console/api.ts';
import type { ChartSeries } from '#client/console/Chart.tsx';
import { lastDays, useFormat, useLanguageName } from '#client/console/format.ts';
import { ConsoleLink, Loading } from '#client/console/ui.tsx';
import { useTitle } from '#client/console/use-title.ts';
import { navigate } from '#client/lib/address.tsx';
import { ScrollTable } from '#client/lib/ScrollTable.tsx';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import { type AnalyticsAnswer, CONSOLE_API } from '#common/console-api.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { LANGUAGES, type Language } from '#common/languages.ts';
import { consolePath } from '#common/routes.ts';
import { ChatQuality } from './ChatQuality.tsx';

// uPlot comes with the chart, only to those who open this page.
const Chart = lazy(() => import('#client/console/Chart.tsx'));

/** One colour per language, told apart in both colour schemes; the total is dashed as well. */
const COLORS: Record<Language, string> = {
  en: '#2563eb',
  it: '#16a34a',
  th: '#d97706',
  fr: '#9333ea',
  de: '#e11d48',
  nl: '#0891b2',
};
const TOTAL_COLOR = '#6b7280';
const PRESETS = [7, 30, 90, 365] as const;

/** Every day of the range, so that a day without visits shows as zero rather than being skipped. */
function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = Date.parse(`${from}T00:00:00Z`); day <= Date.parse(`${to}T00:00:00Z`); day += 86_400_000) {
    days.push(new Date(day).toISOString().slice(0, 10));
  }
  return days;
}

function ChartWithTable({
  title,
  id,
  days,
  series,
}: {
  title: string;
  id: string;
  days: string[];
  series: ChartSeries[];
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
              days={days}
              series={series}
              language={i18n.language}
            />
          </Suspense>
          <figcaption>
            <ul className="chart__legend">
              {series.map((line) => (
                <li key={line.name}>
                  <span
                    className={`chart__swatch${line.dashed ? ' chart__swatch--dashed' : ''}`}
                    style={{ borderColor: line.color }}
                    aria-hidden="true"
                  />
                  {line.name}
                </li>
              ))}
            </ul>
          </figcaption>
        </figure>
        <ScrollTable className="chart__table" caption={t('analytics.tableCaption', { title })}>
          <thead>
            <tr>
              <th scope="col">{t('analytics.day')}</th>
              {series.map((line) => (
                <th scope="col" key={line.name}>
                  {line.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, index) => (
              <tr key={day}>
                <th scope="row">{format.day(day)}</th>
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

function TopTable({
  id,
  title,
  column,
  rows,
  empty,
}: {
  id: string;
  title: string;
  column: string;
  rows: { key: string; views: number; visitors: number }[];
  empty: string;
}) {
  const { t } = useTranslation('console');
  const format = useFormat();
  return (
    <section aria-labelledby={`${id}-title`} className="top">
      <h2 id={`${id}-title`}>{title}</h2>
      {rows.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{column}</th>
              <th scope="col">{t('analytics.viewsColumn')}</th>
              <th scope="col">{t('analytics.visitorsColumn')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row" dir="auto">
                  {row.key}
                </th>
                <td>{format.number(row.views)}</td>
                <td>{format.number(row.visitors)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Page views and unique visitors per day by language, the top pages and referrers, for a range of days. */
export default function AnalyticsPage({ query }: { query: URLSearchParams }) {
  const languageName = useLanguageName();
  const { t } = useTranslation('console');
  const { t: te } = useTranslation('errors');
  const errorToast = useErrorToast();
  const defaults = lastDays(30);
  const from = query.get('from') || defaults.from;
  const to = query.get('to') || defaults.to;
  const [range, setRange] = useState({ from, to });
  const [answer, setAnswer] = useState<AnalyticsAnswer | null>(null);
  const [problem, setProblem] = useState<ErrorCode | null>(null);
  useTitle(t('analytics.title'));

  useEffect(() => {
    let current = true;
    setRange({ from, to });
    setAnswer(null);
    setProblem(null);
    void consoleCall<AnalyticsAnswer>(`${CONSOLE_API.analytics}${queryOf({ from, to })}`).then((result) => {
      if (!current) return;
      if (result.ok) setAnswer(result.data);
      else if (result.fields?.from || result.fields?.to) setProblem(result.fields.to ?? result.fields.from ?? null);
      else void errorToast(result.code);
    });
    return () => {
      current = false;
    };
  }, [from, to]);

  const charts = useMemo(() => {
    if (!answer) return null;
    const days = daysOf(answer.from, answer.to);
    const index = new Map(days.map((day, i) => [day, i]));
    const languages = LANGUAGES.filter((language) => answer.days.some((row) => row.language === language));
    const lines = (measure: 'views' | 'visitors'): ChartSeries[] => [
      ...languages.map((language) => {
        const values = days.map(() => 0);
        for (const row of answer.days) if (row.language === language) values[index.get(row.day) ?? 0] = row[measure];
        return { name: languageName(language), values, color: COLORS[language] };
      }),
      {
        name: t('analytics.total'),
        values: days.map((day) => answer.totals.find((row) => row.day === day)?.[measure] ?? 0),
        color: TOTAL_COLOR,
        dashed: true,
      },
    ];
    return { days, views: lines('views'), visitors: lines('visitors') };
  }, [answer, t]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    navigate(consolePath('analytics', { query: queryOf(range) }));
  };

  return (
    <>
      <h1>{t('analytics.title')}</h1>
      <p className="console-lead">{t('analytics.source')}</p>
      {answer?.posthogHost && (
        <p className="console-note">
          {t('analytics.posthog', { host: answer.posthogHost })}{' '}
          <a href={answer.posthogHost} rel="noreferrer">
            {t('analytics.openPosthog')}
          </a>
        </p>
      )}
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
          {PRESETS.map((days) => (
            <ConsoleLink key={days} to={consolePath('analytics', { query: queryOf(lastDays(days)) })}>
              {t('analytics.last', { count: days })}
            </ConsoleLink>
          ))}
        </p>
      </form>
      {problem && (
        <p id="range-error" className="field__error" role="alert">
          {te(problem)}
        </p>
      )}
      {!answer || !charts ? (
        !problem && <Loading />
      ) : (
        <>
          {answer.totals.length === 0 && (
            <p className="console-empty" role="status">
              {t('analytics.empty')}
            </p>
          )}
          <ChartWithTable id="views" title={t('analytics.views')} days={charts.days} series={charts.views} />
          <ChartWithTable id="visitors" title={t('analytics.visitors')} days={charts.days} series={charts.visitors} />
          <div className="tops">
            <TopTable
              id="pages"
              title={t('analytics.topPages')}
              column={t('analytics.page')}
              rows={answer.topPages.map((row) => ({ ...row, key: row.path }))}
              empty={t('analytics.empty')}
            />
            <TopTable
              id="referrers"
              title={t('analytics.topReferrers')}
              column={t('analytics.referrer')}
              rows={answer.topReferrers.map((row) => ({ ...row, key: row.host }))}
              empty={t('analytics.noReferrers')}
            />
          </div>
        </>
      )}
      <ChatQuality />
    </>
  );
}
