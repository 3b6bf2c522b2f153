/**
 * How long the product keeps each kind of data it stores. The server's clean-up jobs delete by
 * these numbers and the privacy policy renders them, so the policy cannot promise what the code
 * does not do. What the site does not keep itself (server logs, backups, the analytics and tracing
 * upstreams) is the company's to state, in the site configuration.
 */
export const RETENTION = {
  /** An account nobody confirmed is removed, so an address typed by mistake is free again. */
  unverifiedAccountDays: 7,
  /** An account nobody signed in to for this long is deleted with everything that belongs to it. */
  inactiveAccountDays: 730,
  /** A session's absolute end; it ends sooner when unused (SESSION_IDLE_SECONDS) or at sign-out. */
  sessionDays: 30,
  /** A session unused this long ends: the default of SESSION_IDLE_SECONDS, which may only shorten it. */
  sessionIdleDays: 7,
  /** A browser whose owner asked not to be asked for the second factor there, for this long. */
  trustedBrowserDays: 30,
  /** A sign-in whose password was right waits this long for its second factor. */
  pendingSignInMinutes: 5,
  /** A passkey challenge (to sign in, or to add a passkey) waits this long for its answer, once. */
  passkeyChallengeMinutes: 5,
  /** A mailed code works this long, once. */
  codeMinutes: 10,
  /** Mail waiting for the mail server is retried this long, then given up (the mail is deleted). */
  mailDeliveryDays: 3,
  /** Without a mail server configured, mail is kept in the outbox (and the log) for whoever runs the server to read. */
  mailOutboxDays: 7,
  /**
   * Messages sent through the contact form and support chats, with their replies, counted from the
   * last reply (or the message, when none).
   */
  messageDays: 365,
  /** A contact message taken for spam goes sooner: nobody answers it. */
  spamMessageDays: 30,
  /** Page views in the embedded analytics store. */
  analyticsDays: 395,
  /**
   * Rate-limit counters (keyed hashes of client addresses and accounts) are gone within this long:
   * the longest counting window is an hour, and lapsed windows are deleted hourly.
   */
  rateLimitHours: 2,
  /**
   * Which analytics report or alert went to which admin, remembered so that each goes once: far
   * longer than a report stays due. Staff data, so the visitors' privacy policy does not list it.
   */
  reportMailRecordDays: 90,
} as const;

export type RetentionKind = keyof typeof RETENTION;
