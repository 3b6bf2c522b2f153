/**
 * The chat's office hours, the team's alerts and the typing signal: endpoints and answers, for the
 * server, the widget, the console and the tests. Schemas are in chat-hours-schemas.ts, which the
 * widget does not need.
 */
export const CHAT_HOURS_API = {
  /** GET: whether the team is there now, when it is back, and how soon it usually answers. Sets nothing. */
  availability: '/api/chat/availability',
  /** POST: the visitor is typing (throttled by the widget and the server; never stored). */
  typing: '/api/chat/typing',
  /** GET (staff) and POST (admins): office hours and the waiting alert's delay. */
  settings: '/api/console/chat-settings',
  /** GET and POST: the signed-in operator's own alert choices. */
  myAlerts: '/api/console/chat-alerts',
  /** POST: an operator is typing in a conversation. */
  operatorTyping: (id: number | string) => `/api/console/chat-typing/${id}`,
} as const;

/** The stream event that says the other side is typing; it carries no text and is never stored. */
export const TYPING_EVENT = 'typing';

/** How often a browser sends the typing signal while someone keeps typing. */
export const TYPING_SEND_EVERY_MS = 2_500;
/** How long "typing…" shows after the last signal (a little more than two signals apart). */
export const TYPING_SHOWN_MS = 6_000;

/** A span of a day, as wall-clock times in the team's time zone: "08:00" to "17:30" ("24:00" for midnight). */
export interface HoursInterval {
  from: string;
  to: string;
}

export interface ChatSettings {
  /** Off: the team counts as there whenever an operator has the console open. */
  hoursEnabled: boolean;
  /** IANA name, such as "Europe/Berlin". */
  timeZone: string;
  /** Seven days, Monday first, each with its opening spans. */
  weekly: HoursInterval[][];
  /** Days off, YYYY-MM-DD in the time zone. */
  holidays: string[];
  /** Minutes a visitor may wait unanswered before the operators on duty are mailed. */
  alertAfterMinutes: number;
}

export interface Availability {
  /** Whether office hours are set; without them only `operatorsOnline` says whether someone is there. */
  hours: boolean;
  /** Within office hours now (always true without them). */
  open: boolean;
  /** When the current opening ends, when open. */
  closesAt: string | null;
  /** When the team is back, when closed (null when no opening is set in the next weeks). */
  nextOpen: string | null;
  /** Median of the first replies of the last 7 days, in seconds; null with too few of them. */
  typicalReplySeconds: number | null;
  operatorsOnline: boolean;
}

export interface OperatorAlerts {
  /** Play a sound when a visitor writes while the console's tab is hidden. */
  sound: boolean;
}

/** The console stream's typing event. */
export interface ConsoleTypingEvent {
  conversationId: number;
}
