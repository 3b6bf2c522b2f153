import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeApi, freshAddress } from '#tests/support/api.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describeApi('what an event keeps for the breakdowns', ({ app, db }) => {
  it('keeps the browser language, the campaign and what the user agent names, and never the agent or the address', async () => {
    const uuid = randomUUID();
    const address = freshAddress();
    const response = await app().request('/api/posthog/e/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address, 'User-Agent': IPHONE },
      body: JSON.stringify({
        event: '$pageview',
        uuid,
        timestamp: new Date().toISOString(),
        properties: {
          distinct_id: 'v-details',
          token: 'first-party',
          $current_url: 'https://site.example/th/about?utm_source=Newsletter&utm_campaign=Autumn%20Sale&x=1',
          $browser_language: 'th-TH',
        },
      }),
    });
    expect(response.status).toBe(200);
    const [row] = await db().query<Record<string, unknown>>('SELECT * FROM analytics_events WHERE uuid = $1', [uuid]);
    expect(row).toMatchObject({
      path: '/th/about',
      language: 'th',
      browser_language: 'th',
      utm_source: 'newsletter',
      utm_campaign: 'autumn sale',
      device: 'mobile',
      browser: 'Safari',
      os: 'iOS',
    });
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(address);
    expect(stored).not.toContain('Mozilla');
  });
});
