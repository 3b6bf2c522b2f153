/**
 * Analytics by mail (decision 210): each admin's choice of a report (weekly on Mondays, monthly on
 * the 1st, or none) and of an alert when an hour's visits exceed a multiple of the usual level.
 * The schema is in analytics-mail-schemas.ts.
 */
export const ANALYTICS_MAIL_API = {
  /** GET and POST (admins): the signed-in admin's own choice. */
  settings: '/api/console/analytics/mail',
} as const;

export const MAIL_REPORTS = ['none', 'weekly', 'monthly'] as const;
export type MailReport = (typeof MAIL_REPORTS)[number];

/** The multiples an alert may be set to, and those the console offers. */
export const ALERT_MULTIPLE_MIN = 2;
export const ALERT_MULTIPLE_MAX = 100;
export const ALERT_MULTIPLES = [2, 3, 5, 10] as const;

export interface AnalyticsMailSettings {
  report: MailReport;
  /** Visits in an hour above this many times the usual level are mailed; null: no alerts. */
  alertMultiple: number | null;
}

/** The defaults of an admin who never chose: nothing is mailed unasked (decision 210). */
export const DEFAULT_ANALYTICS_MAIL: AnalyticsMailSettings = { report: 'none', alertMultiple: null };
