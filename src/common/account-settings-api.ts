/**
 * The calls of the account page that manage the account itself: its sessions, its password, its
 * email address and a copy of its data. Named once for the server, the browser and the tests.
 */
export const ACCOUNT_SETTINGS_API = {
  sessions: '/api/account/sessions',
  endSession: '/api/account/sessions/end',
  endOtherSessions: '/api/account/sessions/end-others',
  changePassword: '/api/account/password',
  /** Mails a code to the new address; the account keeps its address until the code comes back. */
  emailChangeStart: '/api/account/email',
  emailChangeConfirm: '/api/account/email/confirm',
  /** From the link mailed to the old address: no session needed, the link's token is the proof. */
  emailChangeUndo: '/api/account/email/undo',
  dataExport: '/api/account/data',
} as const;

/** How long the link mailed to the old address puts it back after a change of address. */
export const EMAIL_UNDO_DAYS = 7;

/** Copies of the account's data a day (UTC); the server counts them on the account. */
export const DATA_COPIES_PER_DAY = 5;

/** How a session was made, as recorded at sign-in ('password', 'email-code', 'totp', …). */
export interface SessionListEntry {
  id: string;
  /** Browser and system read from the User-Agent at sign-in ("Firefox, Windows"); empty when unknown. */
  label: string;
  factors: string[];
  createdAt: string;
  lastSeenAt: string;
  /** The browser asking. */
  current: boolean;
}

export interface SessionListAnswer {
  sessions: SessionListEntry[];
}

/** How many other sessions a call ended. */
export interface EndedSessionsAnswer {
  ended: number;
}

/** The code went to `email`; it lasts `minutes`. */
export interface EmailChangeStartAnswer {
  email: string;
}

/** The address the account now has. */
export interface EmailChangeConfirmAnswer {
  email: string;
}

/** The account's data, in two forms made from the same reading: for another service, and to read. */
export interface DataExportAnswer {
  /** File names without the extension, `.json` and `.html` to add. */
  fileName: string;
  data: Record<string, unknown>;
  html: string;
}
