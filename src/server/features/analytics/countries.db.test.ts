import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { ANALYTICS_API, type AnalyticsAnswer } from '#common/analytics-api.ts';
import { describeApi } from '#tests/support/api.ts';
import { giveSecondFactor } from '#tests/support/second-factor.ts';

/** Addresses whose country DB-IP has long agreed on (checked against the shipped data in ip-country.test.ts). */
const JAPAN = '133.1.1.1';
const GERMANY_V6 = '2003:e0::1';
const NETHERLANDS_MAPPED = '::ffff:193.0.0.1';
const PRIVATE = '10.0.0.7';

describeApi('the country of an analytics event', (api) => {
  /** Sends one page view of `visitor` through the site's one trusted proxy, which appended `address`. */
  const view = async (visitor: string, address: string, path = '/en', forwardedBefore?: string) => {
    const uuid = randomUUID();
    const response = await api.app().request('/api/posthog/e/', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        // The proxy appends what it saw; whatever the client wrote further left proves nothing.
        'X-Forwarded-For': forwardedBefore ? `${forwardedBefore}, ${address}` : address,
        'User-Agent': 'TestBrowser/1.0',
      },
      body: JSON.stringify({
        event: '$pageview',
        uuid,
        timestamp: new Date().toISOString(),
        properties: { distinct_id: visitor, token: 'first-party', $current_url: `https://site.example${path}` },
      }),
    });
    expect(response.status).toBe(200);
    return uuid;
  };
  const ask = async (query: string) => {
    const member = await api.member();
    await api.db().query(`UPDATE accounts SET role = 'operator' WHERE email = $1`, [member.person.email]);
    await giveSecondFactor(api.db(), member.person.email);
    const answer = await member.client.get(`${ANALYTICS_API.dashboard}?period=today&${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as unknown as AnalyticsAnswer;
  };

  const uuids: Record<string, string> = {};
  beforeAll(async () => {
    uuids.japan = await view('v-jp', JAPAN, '/en', GERMANY_V6);
    // The same visit goes on from another network: it keeps the country of its first page view.
    uuids.japanLater = await view('v-jp', GERMANY_V6, '/en/about');
    uuids.germany = await view('v-de', GERMANY_V6, '/de');
    uuids.netherlands = await view('v-nl', NETHERLANDS_MAPPED, '/nl');
    uuids.lan = await view('v-lan', PRIVATE, '/it');
  });

  it('keeps the country code of the address the trusted proxy saw, and never the address', async () => {
    const rows = await api
      .db()
      .query<Record<string, unknown>>('SELECT * FROM analytics_events WHERE uuid = ANY($1::text[]) ORDER BY id', [
        Object.values(uuids),
      ]);
    expect(rows.map((row) => [row.uuid, row.country])).toEqual([
      [uuids.japan, 'JP'],
      [uuids.japanLater, 'DE'],
      [uuids.germany, 'DE'],
      [uuids.netherlands, 'NL'],
      [uuids.lan, null],
    ]);
    const stored = JSON.stringify(rows);
    for (const address of [JAPAN, GERMANY_V6, '193.0.0.1', PRIVATE, '2003:e0:']) {
      expect(stored).not.toContain(address);
    }
  });

  it('breaks the visits down by country, taken from the visit’s first page view', async () => {
    const { breakdowns } = await ask('');
    expect(breakdowns.country).toEqual([
      { key: 'JP', visitors: 1, visits: 1, views: 2 },
      { key: 'DE', visitors: 1, visits: 1, views: 1 },
      { key: 'NL', visitors: 1, visits: 1, views: 1 },
      // No country (a private address) comes last among equals, as other empty values do.
      { key: '', visitors: 1, visits: 1, views: 1 },
    ]);
  });

  it('filters the whole page by a country, or by no country', async () => {
    const japan = await ask('country=JP');
    expect(japan.filters).toEqual({ country: 'JP' });
    expect(japan.headline).toMatchObject({ visitors: 1, visits: 1, views: 2 });
    expect(japan.breakdowns.page.map((row) => row.key).sort()).toEqual(['/en', '/en/about']);

    const unknown = await ask('country=');
    expect(unknown.headline).toMatchObject({ visitors: 1, visits: 1, views: 1 });
    expect(unknown.breakdowns.language).toEqual([{ key: 'it', visitors: 1, visits: 1, views: 1 }]);
  });
});
