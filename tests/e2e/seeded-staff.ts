import type { Browser, BrowserContextOptions } from '@playwright/test';
import { storageEntry } from '#common/storage.ts';
import { CHAT_OPERATOR } from './settings.ts';

/** A seeded staff member's browser on `site` (tests/e2e/chat-seed.ts), signed in with their session cookie. */
export async function seededStaffContext(
  browser: Browser,
  site: string,
  who: { sessionToken: string } = CHAT_OPERATOR,
  options: BrowserContextOptions = {},
) {
  const context = await browser.newContext({ baseURL: site, ...options });
  await context.addCookies([
    {
      name: storageEntry('session').name,
      value: who.sessionToken,
      // A __Host- cookie has no Domain attribute; over DevTools, a domain without a dot sets one for the host only.
      domain: new URL(site).hostname,
      path: '/',
      secure: true,
      httpOnly: true,
      sameSite: 'Lax',
    },
  ]);
  return context;
}
