// Each page answers with a security policy of its own (decision 250): it lets the page's inline
// code run and names no other. Asked of the server as a browser asks, for every page, the root
// page and the console's page.
import { expect, test } from '@playwright/test';
import { allPagePaths, CONSOLE_ROOT } from '#common/routes.ts';
import { refusedInline, unusedHashes } from '#tests/support/inline-code.ts';

test('every page’s policy allows its own inline code and nothing more', async ({ request }) => {
  const addresses = ['/', CONSOLE_ROOT, ...allPagePaths().map(({ path }) => path)];
  const problems: string[] = [];
  for (const address of addresses) {
    const answer = await request.get(address, { maxRedirects: 0 });
    expect(answer.status(), address).toBe(200);
    const html = await answer.text();
    const policy = answer.headers()['content-security-policy'] ?? '';
    expect(policy, address).toContain("script-src 'self'");
    problems.push(
      ...refusedInline(html, policy).map((what) => `${address}: refused ${what}`),
      ...unusedHashes(html, policy).map((hash) => `${address}: names ${hash}, which it does not carry`),
    );
  }
  expect(problems).toEqual([]);
});
