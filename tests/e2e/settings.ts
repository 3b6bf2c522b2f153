/** Ports and the secret the browser tests share with playwright.config.ts. */
export const PORT = Number(process.env.E2E_PORT ?? 4173);
/** The SMTP server the sites send to, and where the tests read what it received (tests/support/mail-server-process.ts). */
export const SMTP_PORT = PORT + 10;
export const MAIL_PORT = PORT + 11;
/** A second site whose sessions lapse after a few idle seconds, for the expired-session test. */
export const SHORT_SESSION_PORT = PORT + 12;
export const SHORT_SESSION_IDLE_SECONDS = 3;
/** The servers' signing key: the tests make valid visitor identifiers with it. */
export const SERVER_SECRET = 'e2e-secret-that-is-at-least-32-characters';
