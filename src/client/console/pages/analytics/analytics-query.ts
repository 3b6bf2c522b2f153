import { ANALYTICS_DIMENSIONS, ANALYTICS_PERIODS, type AnalyticsDimension } from '#common/analytics-api.ts';
import { consolePath } from '#common/routes.ts';

export type PeriodName = (typeof ANALYTICS_PERIODS)[number];
export type Filters = Partial<Record<AnalyticsDimension, string>>;

/** What the page's address asks for: a named period or a range of days, and the filters. */
export interface AnalyticsView {
  period: PeriodName | null;
  from: string | null;
  to: string | null;
  filters: Filters;
}

const isPeriod = (value: string | null): value is PeriodName =>
  (ANALYTICS_PERIODS as readonly (string | null)[]).includes(value);

/** The view an address holds; the last 30 days when it names no period. A filter may be empty ("none"). */
export function viewOf(query: URLSearchParams): AnalyticsView {
  const filters: Filters = {};
  for (const name of ANALYTICS_DIMENSIONS) {
    const value = query.get(name);
    if (value !== null) filters[name] = value;
  }
  const period = query.get('period');
  const from = query.get('from');
  const to = query.get('to');
  if (from && to && !period) return { period: null, from, to, filters };
  return { period: isPeriod(period) ? period : '30d', from: null, to: null, filters };
}

/** The query string of a view, for the page's address and the API alike (empty filters kept). */
export function queryOfView(view: AnalyticsView): string {
  const query = new URLSearchParams();
  if (view.period) query.set('period', view.period);
  else {
    query.set('from', view.from ?? '');
    query.set('to', view.to ?? '');
  }
  for (const name of ANALYTICS_DIMENSIONS) {
    const value = view.filters[name];
    if (value !== undefined) query.set(name, value);
  }
  return `?${query}`;
}

export const analyticsPath = (view: AnalyticsView) => consolePath('analytics', { query: queryOfView(view) });

export function withFilter(view: AnalyticsView, name: AnalyticsDimension, value: string | null): AnalyticsView {
  const filters = { ...view.filters };
  if (value === null) delete filters[name];
  else filters[name] = value;
  return { ...view, filters };
}
