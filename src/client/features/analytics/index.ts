export { BEACON_NAMES } from './first-page-view.ts';
export { countPageView } from './page-view-beacon.ts';
export { useUnconsentedCount } from './unconsented-view.ts';
export { useAnalytics } from './use-analytics.ts';
