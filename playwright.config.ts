import { defineConfig, devices } from '@playwright/test';
import { CHROME_ARGS, CHROME_PATH } from './scripts/chrome.ts';

const PORT = Number(process.env.E2E_PORT ?? 4173);

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
  webServer: {
    command: 'node src/server/main.ts',
    url: `http://localhost:${PORT}/api/health`,
    // Every test is a new browser that sends its fingerprint record, all from one address.
    env: { PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: 'test-results/data', FINGERPRINT_RATE_LIMIT: '100000' },
    reuseExistingServer: false,
    stdout: 'pipe',
  },
});
