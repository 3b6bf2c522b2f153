import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '#client/console/format.ts';
import { navigate } from '#client/lib/address.tsx';
import type { AnalyticsDimension, AnalyticsRow } from '#common/analytics-api.ts';
import { type AnalyticsView, analyticsPath, withFilter } from './analytics-query.ts';
import type { AnalyticsLabels } from './labels.ts';

/**
 * One breakdown as a table, the most visitors first, each row with a bar of its share of the first.
 * A row's name is a button that filters the whole page by it (the filter goes into the address).
 * `note` says where the values come from, under the table.
 */
export function Breakdown({
  dimension,
  rows,
  view,
  labels,
  onExport,
  note,
}: {
  dimension: AnalyticsDimension;
  rows: AnalyticsRow[];
  view: AnalyticsView;
  labels: AnalyticsLabels;
  onExport: () => void;
  note?: ReactNode;
}) {
  const { t } = useTranslation('console');
  const format = useFormat();
  const title = labels.title(dimension);
  const most = Math.max(1, ...rows.map((row) => row.visitors));
  const id = `breakdown-${dimension}`;
  return (
    <section aria-labelledby={`${id}-title`} className="breakdown">
      <h3 id={`${id}-title`}>{title}</h3>
      {rows.length === 0 ? (
        <p>{t('analytics.nothing')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{labels.column(dimension)}</th>
              <th scope="col">{t('analytics.visitorsColumn')}</th>
              <th scope="col">{t('analytics.viewsColumn')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row" className="breakdown__key">
                  <span className="breakdown__bar" style={{ width: `${(row.visitors / most) * 100}%` }} />
                  <button
                    type="button"
                    dir="auto"
                    aria-describedby="filter-hint"
                    onClick={() => navigate(analyticsPath(withFilter(view, dimension, row.key)))}
                  >
                    {labels.value(dimension, row.key)}
                  </button>
                </th>
                <td>{format.number(row.visitors)}</td>
                <td>{format.number(row.views)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {note}
      <p className="breakdown__export">
        <button type="button" className="button button--small button--secondary" onClick={onExport}>
          {t('analytics.exportTable', { title })}
        </button>
      </p>
    </section>
  );
}
