import type { Language } from './languages.ts';
import type { StaffRole } from './roles.ts';

/** The operator console's endpoints. Every one answers only a signed-in operator or admin. */
export const CONSOLE_API = {
  me: '/api/console/me',
  messages: '/api/console/messages',
  message: '/api/console/messages/:id',
  status: '/api/console/messages/:id/status',
  reply: '/api/console/messages/:id/reply',
  remove: '/api/console/messages/:id/delete',
  analytics: '/api/console/analytics',
  realtime: '/api/console/analytics/realtime',
  staff: '/api/console/staff',
  staffRole: '/api/console/staff/:id/role',
} as const;

/** A path of the table with its `:id` filled in. */
export const withId = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));

/** The message statuses; `answered` is set by a reply, the others by hand. */
export const MESSAGE_STATUSES = ['new', 'read', 'answered', 'archived', 'spam'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
/** What the inbox shows by default: everything but archived messages and spam. */
export const INBOX_STATUSES: readonly MessageStatus[] = ['new', 'read', 'answered'];
/** The statuses a staff member may set. */
export const SETTABLE_STATUSES = ['new', 'read', 'archived', 'spam'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

/** What a staff action on a message is recorded as. */
export const MESSAGE_ACTIONS = [
  'read',
  'unread',
  'archived',
  'restored',
  'spam',
  'not-spam',
  'replied',
  'deleted',
] as const;
export type MessageAction = (typeof MESSAGE_ACTIONS)[number];

export interface MeAnswer {
  /** The staff member's account id: what the chat's assignments name. */
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  /** How the server delivers mail: through SMTP, or kept in the outbox table and its log (no SMTP_URL). */
  mail: 'smtp' | 'kept';
}

export interface MessageSummary {
  id: string;
  createdAt: string;
  name: string;
  email: string;
  subject: string;
  language: Language;
  status: MessageStatus;
  /** The first characters of the message. */
  preview: string;
  replies: number;
}

export interface MessagesAnswer {
  messages: MessageSummary[];
  /** Pass as `before` for the next (older) page; null on the last. */
  next: string | null;
  /** Messages per status, over all time, for the filter's labels. */
  counts: Record<MessageStatus, number>;
}

/**
 * A mail as its job reports it: waiting for its first try, waiting after a failed one, taken by
 * the mail server, kept in the outbox (no SMTP), or given up after the delivery period.
 */
export type MailDelivery = 'queued' | 'retrying' | 'sent' | 'kept' | 'failed';

export interface MessageDetail {
  message: MessageSummary & {
    body: string;
    page: string | null;
    spamReason: string | null;
    /** Whether it belongs to an account (and goes when the account does). */
    fromAccount: boolean;
  };
  replies: {
    id: string;
    body: string;
    createdAt: string;
    author: string | null;
    delivery: MailDelivery;
    sentAt: string | null;
  }[];
  events: { action: MessageAction; actor: string | null; createdAt: string }[];
}

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

export interface StaffAnswer {
  staff: {
    id: string;
    name: string;
    email: string;
    role: StaffRole;
    verified: boolean;
    createdAt: string;
    /** The invitation's mail, for someone who has not set a password yet and was invited from the console. */
    invitation: MailDelivery | null;
  }[];
}

/** Adding someone: an existing account gets the role; a new address gets an account and a mailed invitation. */
export interface AddStaffAnswer {
  id: string;
  invited: boolean;
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
