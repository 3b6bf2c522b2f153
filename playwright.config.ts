import { defineConfig, devices } from '@playwright/test';
import { CHROME_ARGS, CHROME_PATH } from './scripts/bench/chrome.ts';
import {
  BRAND_DATA_DIR,
  BRAND_PORT,
  CHAT_HOURS_PORT,
  CHAT_OFFLINE_PORT,
  CHAT_PORT,
  CHAT_REPLY_MAIL_DELAY_SECONDS,
  MAIL_PORT,
  NO_MAIL_DATA_DIR,
  NO_MAIL_PORT,
  OIDC_PORT,
  OIDC_PROVIDER_PORT,
  OIDC_SITE,
  PORT,
  SERVER_SECRET,
  SHORT_SESSION_IDLE_SECONDS,
  SHORT_SESSION_PORT,
  SMTP_PORT,
} from './tests/e2e/settings.ts';
import { TEST_OIDC_CLIENT } from './tests/support/oidc-client.ts';

const site = (port: number, dataDir: string, extra: Record<string, string> = {}) => ({
  command: `node tests/e2e/site-data.ts ${dataDir} && node src/server/main.ts`,
  url: `http://localhost:${port}/api/health`,
  env: {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SERVER_SECRET,
    SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
    // Every test is a new browser that sends its fingerprint record, all from one address.
    FINGERPRINT_RATE_LIMIT: '100000',
    // Every visitor of the contact tests writes from that one address too.
    CONTACT_RATE_LIMIT: '100000',
    // Tests that register name an address of their own in X-Forwarded-For (tests/e2e/accounts.ts).
    TRUST_PROXY: '1',
    ...extra,
  },
  reuseExistingServer: false,
  // The first of the sites to start migrates the embedded database the others copy
  // (tests/e2e/site-data.ts): on a busy two-core host that has taken longer than Playwright's default minute.
  timeout: 180_000,
  stdout: 'pipe' as const,
});

/** A site for the chat tests: an operator seeded first, no limit on new conversations from one address. */
const chatSite = (port: number, dataDir: string) => ({
  ...site(port, dataDir, {
    CHAT_CONVERSATIONS_PER_CLIENT: '100000',
    CHAT_REPLY_MAIL_DELAY_SECONDS: String(CHAT_REPLY_MAIL_DELAY_SECONDS),
  }),
  command: `node tests/e2e/site-data.ts ${dataDir} && node tests/e2e/chat-seed.ts ${dataDir} && node src/server/main.ts`,
});

/** A site offering sign-in with the test OpenID provider, which runs beside it. */
const oidcSite = () => ({
  ...site(OIDC_PORT, 'test-results/data-oidc', {
    HOST: 'localhost',
    OIDC_PROVIDERS: 'test',
    OIDC_TEST_ISSUER: `http://127.0.0.1:${OIDC_PROVIDER_PORT}`,
    OIDC_TEST_CLIENT_ID: TEST_OIDC_CLIENT.id,
    OIDC_TEST_CLIENT_SECRET: TEST_OIDC_CLIENT.secret,
    OIDC_TEST_NAME: 'Test ID',
  }),
  url: `${OIDC_SITE}/api/health`,
});

/** A site that sends no mail (no SMTP_URL), for the console's "kept, not sent" states. */
const noMailSite = (port: number, dataDir: string) => {
  const withMail = site(port, dataDir);
  return { ...withMail, env: Object.fromEntries(Object.entries(withMail.env).filter(([name]) => name !== 'SMTP_URL')) };
};

// Browser tests run against the built site served by the real server. Chromium comes from the
// system (Debian's package by default); CHROME_PATH points at another one.
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `http://localhost:${PORT}`,
    ...devices['Desktop Chrome'],
    launchOptions: { executablePath: CHROME_PATH, args: CHROME_ARGS },
  },
  webServer: [
    {
      command: `node tests/support/mail-server-process.ts ${SMTP_PORT} ${MAIL_PORT}`,
      url: `http://127.0.0.1:${MAIL_PORT}/health`,
      reuseExistingServer: false,
    },
    site(PORT, 'test-results/data'),
    site(SHORT_SESSION_PORT, 'test-results/data-short-session', {
      SESSION_IDLE_SECONDS: String(SHORT_SESSION_IDLE_SECONDS),
    }),
    chatSite(CHAT_PORT, 'test-results/data-chat'),
    chatSite(CHAT_OFFLINE_PORT, 'test-results/data-chat-offline'),
    chatSite(CHAT_HOURS_PORT, 'test-results/data-chat-hours'),
    noMailSite(NO_MAIL_PORT, NO_MAIL_DATA_DIR),
    site(BRAND_PORT, BRAND_DATA_DIR),
    {
      command: `node tests/support/oidc-provider-process.ts ${OIDC_PROVIDER_PORT} ${OIDC_SITE}/api/auth/oidc/test/callback`,
      url: `http://127.0.0.1:${OIDC_PROVIDER_PORT}/.well-known/openid-configuration`,
      reuseExistingServer: false,
    },
    oidcSite(),
  ],
});
