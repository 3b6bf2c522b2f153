/**
 * The console's analytics page (the analytics feature's dashboard-routes.ts on the server): paths
 * and answers for the server, the console, the report mail and the tests. Every path answers only a
 * signed-in operator or admin; the request schema is in analytics-schemas.ts.
 */
export const ANALYTICS_API = {
  /** GET: a period's numbers, chart and breakdowns (AnalyticsQuerySchema). */
  dashboard: '/api/console/analytics',
  /** GET: the visitors of the last few minutes. */
  realtime: '/api/console/analytics/realtime',
} as const;

/** What the analytics page breaks the visits down by; each is also a filter of the same name. */
export const ANALYTICS_DIMENSIONS = [
  'page',
  'entry',
  'exit',
  'language',
  'browserLanguage',
  'referrer',
  'source',
  'campaign',
  'device',
  'browser',
  'system',
  'country',
] as const;
export type AnalyticsDimension = (typeof ANALYTICS_DIMENSIONS)[number];

/** The named periods the analytics page offers besides a range of days; all end today. */
export const ANALYTICS_PERIODS = ['today', '7d', '30d', '90d'] as const;

/** The headline numbers of a period (decision 180 defines visits, bounces and visit length). */
export interface AnalyticsHeadline {
  visitors: number;
  visits: number;
  views: number;
  /** Page views per visit; null without visits. */
  viewsPerVisit: number | null;
  /** The share of visits with a single page view, 0 to 1; null without visits. */
  bounceRate: number | null;
  /** The average visit length in seconds; null without visits. */
  visitSeconds: number | null;
}

/** One point of the chart: an hour ("2026-11-26T14") or a day ("2026-11-26") in the site's time zone. */
export interface AnalyticsPoint {
  bucket: string;
  visitors: number;
  visits: number;
  views: number;
}

/** One row of a breakdown; `key` is empty for events without the value (a direct visit has no referrer). */
export interface AnalyticsRow {
  key: string;
  visitors: number;
  visits: number;
  views: number;
}

export interface AnalyticsAnswer {
  /** The period as answered, in the site's time zone, and the one it is compared with. */
  from: string;
  to: string;
  previousFrom: string;
  previousTo: string;
  timeZone: string;
  bucket: 'hour' | 'day';
  /** The filters applied (a value may be empty: "without a referrer"). */
  filters: Partial<Record<AnalyticsDimension, string>>;
  headline: AnalyticsHeadline;
  previousHeadline: AnalyticsHeadline;
  /**
   * Whether the period's unique visitors (headline and breakdowns) are estimated from the day
   * roll-ups (a period of several days with many page views and no filter); all else is exact.
   */
  estimated: boolean;
  /** Only the hours or days that had page views, oldest first. */
  series: AnalyticsPoint[];
  previousSeries: AnalyticsPoint[];
  /** Page views and visitors per hour or day and page language. */
  languages: { bucket: string; language: string; visitors: number; views: number }[];
  /** The most visited first, at most 50 rows each. */
  breakdowns: Record<AnalyticsDimension, AnalyticsRow[]>;
  /**
   * Contact messages (spam left out) and chat conversations per hour or day that had any, with the
   * conversations the team answered and the median wait for that first answer; the filters do not apply.
   */
  contact: {
    bucket: string;
    messages: number;
    conversations: number;
    answered: number;
    medianFirstReplySeconds: number | null;
  }[];
  /** Page views served to visitors who did not allow analytics: counted without any identifier. */
  unconsented: { views: number; pages: { path: string; language: string; views: number }[] };
  /** The PostHog host the site forwards to, when one is configured: the embedded store then stays empty. */
  posthogHost: string | null;
}

/** How far back "right now" looks, in minutes (the console's texts say five). */
export const REALTIME_MINUTES = 5;

/** Visitors of the last few minutes (those who allowed analytics) and the page each is on. */
export interface RealtimeAnswer {
  visitors: number;
  /** By the page each visitor saw last, most visitors first (at most ten). */
  pages: { path: string; visitors: number }[];
  /** When it was counted: the console refreshes it every few seconds while it is shown. */
  at: string;
}
