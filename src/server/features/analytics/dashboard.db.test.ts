import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { type AnalyticsAnswer, CONSOLE_API } from '#common/console-api.ts';
import { describeApi } from '#tests/support/api.ts';
import { giveSecondFactor } from '#tests/support/second-factor.ts';
import { storeEvents } from './events-store.ts';

const DAY = 24 * 60 * 60 * 1000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

describeApi('the console analytics', (api) => {
  const staff = async () => {
    const member = await api.member();
    await api.db().query(`UPDATE accounts SET role = 'operator' WHERE email = $1`, [member.person.email]);
    await giveSecondFactor(api.db(), member.person.email);
    return member.client;
  };

  it('counts page views and unique visitors per day and language, with the top pages and referrers', async () => {
    // A range of its own, far back, so that no other test's events fall into it.
    const start = new Date('2001-03-10T10:00:00Z');
    const next = new Date(start.getTime() + DAY);
    const tag = randomBytes(3).toString('hex');
    const view = (distinctId: string, path: string, at: Date, referrerHost: string | null = null) => ({
      uuid: `${tag}-${randomBytes(6).toString('hex')}`,
      event: '$pageview',
      distinctId,
      path,
      language: (path.split('/')[1] ?? null) as 'en' | 'it' | null,
      occurredAt: at,
      referrerHost,
    });
    await storeEvents(api.db(), [
      view('a', '/en', start, 'search.example'),
      view('a', '/en/about', start),
      view('b', '/en', start, 'search.example'),
      view('a', '/it', start),
      view('c', '/it/contact', next, 'news.example'),
      { ...view('c', '/it/contact', next), event: '$pageleave' },
    ]);
    const client = await staff();
    const answer = await client.get(`${CONSOLE_API.analytics}?from=${dayOf(start)}&to=${dayOf(next)}`);
    expect(answer.status).toBe(200);
    expect(answer.body as unknown as AnalyticsAnswer).toEqual({
      from: '2001-03-10',
      to: '2001-03-11',
      days: [
        { day: '2001-03-10', language: 'en', views: 3, visitors: 2 },
        { day: '2001-03-10', language: 'it', views: 1, visitors: 1 },
        { day: '2001-03-11', language: 'it', views: 1, visitors: 1 },
      ],
      // Visitor a read two languages on the first day: one visitor, not two.
      totals: [
        { day: '2001-03-10', views: 4, visitors: 2 },
        { day: '2001-03-11', views: 1, visitors: 1 },
      ],
      topPages: [
        { path: '/en', views: 2, visitors: 2 },
        { path: '/en/about', views: 1, visitors: 1 },
        { path: '/it', views: 1, visitors: 1 },
        { path: '/it/contact', views: 1, visitors: 1 },
      ],
      topReferrers: [
        { host: 'search.example', views: 2, visitors: 2 },
        { host: 'news.example', views: 1, visitors: 1 },
      ],
      posthogHost: null,
    });
  });

  it('points to PostHog when the site forwards there', async () => {
    const member = await api.member();
    await api.db().query(`UPDATE accounts SET role = 'admin' WHERE email = $1`, [member.person.email]);
    await giveSecondFactor(api.db(), member.person.email);
    const app = api.app({ settings: { posthog: { host: 'https://eu.i.posthog.com', key: 'phc_test' } } });
    const client = api.client(app);
    for (const [name, value] of member.client.cookies) client.cookies.set(name, value);
    const answer = await client.get(`${CONSOLE_API.analytics}?from=2001-01-01&to=2001-01-02`);
    expect(answer.body).toMatchObject({ posthogHost: 'https://eu.i.posthog.com', days: [] });
  });

  it('gives a signed-out visitor, a member and another site nothing', async () => {
    const path = `${CONSOLE_API.analytics}?from=2001-03-10&to=2001-03-11`;
    expect((await api.client().get(path)).status).toBe(401);
    expect((await (await api.member()).client.get(path)).body).toEqual({ error: { code: 'FORBIDDEN' } });
    const client = await staff();
    expect((await client.request('GET', path, undefined, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await client.request('GET', path, undefined, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
  });

  it('answers for the first and the last days there are', async () => {
    const client = await staff();
    expect((await client.get(`${CONSOLE_API.analytics}?from=0001-01-01&to=0001-01-02`)).status).toBe(200);
    expect((await client.get(`${CONSOLE_API.analytics}?from=9999-12-30&to=9999-12-31`)).status).toBe(200);
  });

  it('refuses a range that makes no sense', async () => {
    const client = await staff();
    const cases: [string, Record<string, string>][] = [
      ['', { from: 'MISSING_REQUIRED_FIELD', to: 'MISSING_REQUIRED_FIELD' }],
      ['?from=2026-01-10&to=2026-01-01', { to: 'INVALID_DATE_RANGE' }],
      ['?from=2024-01-01&to=2026-01-01', { to: 'INVALID_DATE_RANGE' }],
      ['?from=2026-02-31&to=2026-03-01', { from: 'INVALID_DATE_RANGE' }],
      ["?from=2026-01-01'--&to=2026-01-02", { from: 'INVALID_DATE_RANGE' }],
      // Year 0 is a valid ISO date, but no date PostgreSQL takes (it answered 500).
      ['?from=0000-01-01&to=0000-01-02', { from: 'INVALID_DATE_RANGE', to: 'INVALID_DATE_RANGE' }],
      ['?from=0000-12-31&to=0001-01-01', { from: 'INVALID_DATE_RANGE' }],
    ];
    for (const [query, fields] of cases) {
      expect(await client.get(`${CONSOLE_API.analytics}${query}`), query).toMatchObject({
        status: 400,
        body: { error: { code: 'VALIDATION_ERROR', fields } },
      });
    }
  });
});
