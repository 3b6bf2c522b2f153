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
/**
 * Two sites for the chat tests, each with an operator seeded before it starts (chat-seed.ts): on
 * the first the operator's console is open in the tests; on the second no operator is ever online,
 * and unread replies are mailed after a short delay.
 */
export const CHAT_PORT = PORT + 13;
export const CHAT_OFFLINE_PORT = PORT + 14;
export const CHAT_REPLY_MAIL_DELAY_SECONDS = 2;
/** A site without SMTP_URL: it keeps its mail in the outbox, and the console says so. */
export const NO_MAIL_PORT = PORT + 15;
export const NO_MAIL_DATA_DIR = 'test-results/data-no-mail';
/** A chat site whose office hours the tests set (tests/e2e/chat-alerts.spec.ts), apart from the others. */
export const CHAT_HOURS_PORT = PORT + 16;
/**
 * A site whose texts, brand and pictures the console changes (console-texts.spec.ts,
 * console-brand.spec.ts, console-pictures.spec.ts): the pages it renders again differ from the
 * build's, which other sites' tests compare with.
 */
export const BRAND_PORT = PORT + 20;
export const BRAND_DATA_DIR = 'test-results/data-brand';
export const BRAND_SITE = `http://localhost:${BRAND_PORT}`;
/** The seeded admin of the chat sites, for their chat settings. */
export const CHAT_ADMIN = {
  name: 'Ada Admin',
  email: 'ada.admin@example.com',
  phone: '+31612345679',
  sessionToken: 'e2e-admin-session-token-that-nobody-else-knows',
};
/**
 * A site that offers sign-in with an OpenID provider, and that provider (tests/support/oidc-provider.ts)
 * on loopback. The site listens on `localhost` so that its own address, which the provider sends the
 * browser back to, is the one the browser uses.
 */
// Not PORT + 17: with the default PORT that is 4190, a port the Fetch standard forbids ("bad port"),
// so the site's discovery request was refused before it left the process.
export const OIDC_PROVIDER_PORT = PORT + 19;
export const OIDC_PORT = PORT + 18;
export const OIDC_SITE = `http://localhost:${OIDC_PORT}`;

/** The seeded operator: signed in by the session cookie whose token is this. */
export const CHAT_OPERATOR = {
  name: 'Olga Operator',
  email: 'olga.operator@example.com',
  phone: '+31612345678',
  sessionToken: 'e2e-operator-session-token-that-nobody-else-knows',
};
