import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { ANALYTICS_API, type AnalyticsAnswer } from '#common/analytics-api.ts';
import { limitKey } from '#server/http/rate-limit.ts';
import type { AgentSummary } from '#server/platform/user-agent.ts';
import { describeApi, TEST_SECRET } from '#tests/support/api.ts';
import { giveSecondFactor } from '#tests/support/second-factor.ts';
import { storeEvents } from './events-store.ts';
import type { AnalyticsEvent } from './posthog-payload.ts';

const MINUTE = 60 * 1000;
const DESKTOP: AgentSummary = { device: 'desktop', browser: 'Chrome', os: 'Windows' };
const PHONE: AgentSummary = { device: 'mobile', browser: 'Safari', os: 'iOS' };

const tag = randomBytes(3).toString('hex');
const event = (
  distinctId: string,
  path: string,
  at: string,
  more: Partial<AnalyticsEvent> = {},
  name = '$pageview',
): AnalyticsEvent => ({
  uuid: `${tag}-${randomBytes(6).toString('hex')}`,
  event: name,
  distinctId,
  path,
  language: (path.split('/')[1] ?? null) as 'en' | 'it' | null,
  occurredAt: new Date(at),
  ...more,
});
const at = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * MINUTE).toISOString();

describeApi('the console analytics', (api) => {
  const staff = async () => {
    const member = await api.member();
    await api.db().query(`UPDATE accounts SET role = 'operator' WHERE email = $1`, [member.person.email]);
    await giveSecondFactor(api.db(), member.person.email);
    return member.client;
  };
  const ask = async (query: string) => {
    const answer = await (await staff()).get(`${ANALYTICS_API.dashboard}?${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as unknown as AnalyticsAnswer;
  };

  // Far back, so that no other test's events fall into the range. UTC until a test says otherwise.
  const DAY1 = '2001-03-10T10:00:00Z';
  const DAY2 = '2001-03-11T09:00:00Z';
  beforeAll(async () => {
    const db = api.db();
    await db.query(`UPDATE chat_settings SET time_zone = 'UTC'`);
    await storeEvents(
      db,
      [
        // Visit 1 of a: two pages, six minutes up to the page leave, from a campaign in a search engine.
        event('a', '/en', DAY1, { referrerHost: 'search.example', utmSource: 'news', utmCampaign: 'spring' }),
        event('a', '/en/about', at(DAY1, 5), { browserLanguage: 'th' }),
        event('a', '/en/about', at(DAY1, 6), {}, '$pageleave'),
        // Visit 2 of a: 54 minutes after the last event, so a visit of its own; a bounce.
        event('a', '/it', at(DAY1, 60)),
        // The day before the range: the previous period.
        event('d', '/en', '2001-03-09T12:00:00Z'),
      ],
      DESKTOP,
    );
    await storeEvents(
      db,
      [
        // Visit 3 of b: one page, half a minute read.
        event('b', '/en', DAY1, { referrerHost: 'search.example', browserLanguage: 'th' }),
        event('b', '/en', at(DAY1, 0.5), {}, '$pageleave'),
        // Visits 4 and 5 of c, 40 minutes apart.
        event('c', '/it/contact', DAY2, { referrerHost: 'news.example' }),
        event('c', '/it', at(DAY2, 40)),
      ],
      PHONE,
    );
  });

  it('gives the headline numbers with the period before, by the rules of visits and bounces', async () => {
    const answer = await ask('from=2001-03-10&to=2001-03-11');
    expect(answer).toMatchObject({
      from: '2001-03-10',
      to: '2001-03-11',
      previousFrom: '2001-03-08',
      previousTo: '2001-03-09',
      timeZone: 'UTC',
      bucket: 'day',
      filters: {},
      posthogHost: null,
    });
    // Five visits: 2 + 1 + 1 + 1 + 1 page views; four bounces; 360 + 0 + 30 + 0 + 0 seconds.
    expect(answer.headline).toEqual({
      visitors: 3,
      visits: 5,
      views: 6,
      viewsPerVisit: 1.2,
      bounceRate: 0.8,
      visitSeconds: 78,
    });
    expect(answer.previousHeadline).toEqual({
      visitors: 1,
      visits: 1,
      views: 1,
      viewsPerVisit: 1,
      bounceRate: 1,
      visitSeconds: 0,
    });
    expect(answer.series).toEqual([
      { bucket: '2001-03-10', visitors: 2, visits: 3, views: 4 },
      { bucket: '2001-03-11', visitors: 1, visits: 2, views: 2 },
    ]);
    expect(answer.previousSeries).toEqual([{ bucket: '2001-03-09', visitors: 1, visits: 1, views: 1 }]);
    expect(answer.languages).toEqual([
      { bucket: '2001-03-10', language: 'en', visitors: 2, views: 3 },
      { bucket: '2001-03-10', language: 'it', visitors: 1, views: 1 },
      { bucket: '2001-03-11', language: 'it', visitors: 1, views: 2 },
    ]);
  });

  it('breaks the visits down by page, entry, exit, language, source, campaign and device', async () => {
    const { breakdowns } = await ask('from=2001-03-10&to=2001-03-11');
    expect(breakdowns.page).toEqual([
      { key: '/en', visitors: 2, visits: 2, views: 2 },
      { key: '/it', visitors: 2, visits: 2, views: 2 },
      { key: '/en/about', visitors: 1, visits: 1, views: 1 },
      { key: '/it/contact', visitors: 1, visits: 1, views: 1 },
    ]);
    expect(breakdowns.entry).toEqual([
      { key: '/en', visitors: 2, visits: 2, views: 3 },
      { key: '/it', visitors: 2, visits: 2, views: 2 },
      { key: '/it/contact', visitors: 1, visits: 1, views: 1 },
    ]);
    expect(breakdowns.exit.find((row) => row.key === '/en/about')).toEqual({
      key: '/en/about',
      visitors: 1,
      visits: 1,
      views: 2,
    });
    expect(breakdowns.language).toEqual([
      { key: 'en', visitors: 2, visits: 2, views: 3 },
      { key: 'it', visitors: 2, visits: 3, views: 3 },
    ]);
    // The visit takes the browser language of its first page view that says one.
    expect(breakdowns.browserLanguage.map((row) => row.key)).toEqual(['', 'th']);
    // Direct visits have no referrer; as many visitors as the search engine, fewer page views.
    expect(breakdowns.referrer).toEqual([
      { key: 'search.example', visitors: 2, visits: 2, views: 3 },
      { key: '', visitors: 2, visits: 2, views: 2 },
      { key: 'news.example', visitors: 1, visits: 1, views: 1 },
    ]);
    expect(breakdowns.campaign).toContainEqual({ key: 'spring', visitors: 1, visits: 1, views: 2 });
    expect(breakdowns.source).toContainEqual({ key: 'news', visitors: 1, visits: 1, views: 2 });
    expect(breakdowns.device).toEqual([
      { key: 'mobile', visitors: 2, visits: 3, views: 3 },
      { key: 'desktop', visitors: 1, visits: 2, views: 3 },
    ]);
    expect(breakdowns.browser.map((row) => row.key)).toEqual(['Safari', 'Chrome']);
    expect(breakdowns.system.map((row) => row.key)).toEqual(['iOS', 'Windows']);
  });

  it('filters the whole answer by a visit’s value or a page view’s, and by the lack of a value', async () => {
    const phone = await ask('from=2001-03-10&to=2001-03-11&device=mobile');
    expect(phone.filters).toEqual({ device: 'mobile' });
    expect(phone.headline).toMatchObject({ visitors: 2, visits: 3, views: 3 });
    expect(phone.breakdowns.device).toEqual([{ key: 'mobile', visitors: 2, visits: 3, views: 3 }]);
    expect(phone.previousHeadline.visits).toBe(0);

    // A page filter keeps the page's views, and judges their visits whole: visit 1 lasted six minutes.
    const about = await ask(`from=2001-03-10&to=2001-03-11&page=${encodeURIComponent('/en/about')}`);
    expect(about.headline).toEqual({
      visitors: 1,
      visits: 1,
      views: 1,
      viewsPerVisit: 1,
      bounceRate: 0,
      visitSeconds: 360,
    });
    expect(about.breakdowns.entry).toEqual([{ key: '/en', visitors: 1, visits: 1, views: 1 }]);

    const direct = await ask('from=2001-03-10&to=2001-03-11&referrer=');
    expect(direct.filters).toEqual({ referrer: '' });
    expect(direct.headline).toMatchObject({ visitors: 2, visits: 2, views: 2 });

    const both = await ask('from=2001-03-10&to=2001-03-11&referrer=search.example&language=en&browser=Chrome');
    expect(both.headline).toMatchObject({ visitors: 1, visits: 1, views: 2 });
    const none = await ask('from=2001-03-10&to=2001-03-11&campaign=nothing');
    expect(none.headline).toEqual({
      visitors: 0,
      visits: 0,
      views: 0,
      viewsPerVisit: null,
      bounceRate: null,
      visitSeconds: null,
    });
    expect(none.series).toEqual([]);
  });

  it('counts days and hours in the site’s time zone', async () => {
    const db = api.db();
    try {
      await db.query(`UPDATE chat_settings SET time_zone = 'Asia/Bangkok'`);
      // c's visits at 09:00 and 09:40 UTC are at 16:00 and 16:40 in Bangkok, seven hours ahead.
      const day = await ask('from=2001-03-11&to=2001-03-11');
      expect(day).toMatchObject({ timeZone: 'Asia/Bangkok', bucket: 'hour', previousFrom: '2001-03-10' });
      expect(day.series).toEqual([{ bucket: '2001-03-11T16', visitors: 1, visits: 2, views: 2 }]);
      // d's view at 12:00 UTC on the 9th is 19:00 that day in Bangkok; a's and b's are on the 10th.
      const days = await ask('from=2001-03-09&to=2001-03-10');
      expect(days.series.map((point) => point.bucket)).toEqual(['2001-03-09', '2001-03-10']);
    } finally {
      await db.query(`UPDATE chat_settings SET time_zone = 'UTC'`);
    }
  });

  it('ends a visit at the site’s midnight (decision 253)', async () => {
    const db = api.db();
    // 16:50 and 17:05 UTC: one visit in UTC, 23:50 and 00:05 in Bangkok.
    await storeEvents(db, [event('m', '/en', '2001-03-20T16:50:00Z'), event('m', '/en/about', '2001-03-20T17:05:00Z')]);
    expect((await ask('from=2001-03-20&to=2001-03-21')).headline).toMatchObject({ visitors: 1, visits: 1, views: 2 });
    try {
      await db.query(`UPDATE chat_settings SET time_zone = 'Asia/Bangkok'`);
      const answer = await ask('from=2001-03-20&to=2001-03-21');
      expect(answer.headline).toMatchObject({ visitors: 1, visits: 2, views: 2, bounceRate: 1 });
      expect(answer.series).toEqual([
        { bucket: '2001-03-20', visitors: 1, visits: 1, views: 1 },
        { bucket: '2001-03-21', visitors: 1, visits: 1, views: 1 },
      ]);
    } finally {
      await db.query(`UPDATE chat_settings SET time_zone = 'UTC'`);
    }
  });

  it('counts contact messages and chat conversations per day, with the wait for the first answer', async () => {
    const db = api.db();
    const message = (at: string, status = 'new') =>
      db.query(
        `INSERT INTO contact_messages (created_at, language, name, email, subject, body, status)
         VALUES ($1, 'en', 'Ada', 'ada@example.com', 'Hello', 'Hello there', $2)`,
        [at, status],
      );
    await message('2001-03-10T08:00:00Z');
    await message('2001-03-10T09:00:00Z', 'spam');
    await message('2001-03-11T08:00:00Z');
    const conversation = async (at: string, replyAfterSeconds: number | null) => {
      const [row] = await db.query<{ id: string }>(
        `INSERT INTO chat_conversations (client_hash, language, page, created_at) VALUES ('h', 'th', '/th', $1) RETURNING id`,
        [at],
      );
      const write = (author: string, seconds: number) =>
        db.query(
          `INSERT INTO chat_messages (conversation_id, author, body, client_message_id, created_at)
           VALUES ($1, $2, 'hi', $3, $4::timestamptz + $5::integer * interval '1 second')`,
          [row?.id, author, randomBytes(6).toString('hex'), at, seconds],
        );
      await write('visitor', 0);
      if (replyAfterSeconds !== null) {
        await write('operator', replyAfterSeconds);
        await write('operator', replyAfterSeconds + 600);
      }
    };
    await conversation('2001-03-10T10:00:00Z', 60);
    await conversation('2001-03-10T11:00:00Z', 180);
    await conversation('2001-03-10T12:00:00Z', null);
    const answer = await ask('from=2001-03-10&to=2001-03-11');
    expect(answer.contact).toEqual([
      { bucket: '2001-03-10', messages: 1, conversations: 3, answered: 2, medianFirstReplySeconds: 120 },
      { bucket: '2001-03-11', messages: 1, conversations: 0, answered: 0, medianFirstReplySeconds: null },
    ]);
  });

  it('shows the page views served without consent, as plain counts', async () => {
    const client = await staff();
    for (const path of ['/th/about', '/th/about', '/en']) {
      expect((await api.client().post('/api/analytics/unconsented', { path })).status).toBe(204);
    }
    const today = new Date().toISOString().slice(0, 10);
    const answer = await client.get(`${ANALYTICS_API.dashboard}?from=${today}&to=${today}`);
    expect((answer.body as unknown as AnalyticsAnswer).unconsented).toEqual({
      views: 3,
      pages: [
        { path: '/th/about', language: 'th', views: 2 },
        { path: '/en', language: 'en', views: 1 },
      ],
    });
    const stored = await api.db().query('SELECT * FROM analytics_unconsented_views');
    expect(Object.keys(stored[0] ?? {}).sort()).toEqual(['day', 'language', 'path', 'views']);
  });

  it('drops counts beyond the limit of an address without an error, so that no browser logs one', async () => {
    const client = api.client();
    await api
      .db()
      .query(
        `INSERT INTO rate_limits (key, hits, expires_at) VALUES ($1, 300, statement_timestamp() + interval '1 minute')`,
        [limitKey(TEST_SECRET, 'unconsented-view', client.address)],
      );
    const path = `/th/limit-${tag}`;
    expect((await client.post('/api/analytics/unconsented', { path })).status).toBe(204);
    expect(await api.db().query('SELECT 1 FROM analytics_unconsented_views WHERE path = $1', [path])).toEqual([]);
    expect((await api.client().post('/api/analytics/unconsented', { path })).status).toBe(204);
    expect(await api.db().query('SELECT views FROM analytics_unconsented_views WHERE path = $1', [path])).toEqual([
      { views: 1 },
    ]);
  });

  it('refuses a count of something that is no page', async () => {
    for (const path of ['about', '/a b', `/${'x'.repeat(300)}`, '/en?x=1']) {
      expect((await api.client().post('/api/analytics/unconsented', { path })).status).toBe(400);
    }
  });

  it('points to PostHog when the site forwards there', async () => {
    const member = await api.member();
    await api.db().query(`UPDATE accounts SET role = 'admin' WHERE email = $1`, [member.person.email]);
    await giveSecondFactor(api.db(), member.person.email);
    const app = api.app({ settings: { posthog: { host: 'https://eu.i.posthog.com', key: 'phc_test' } } });
    const client = api.client(app);
    for (const [name, value] of member.client.cookies) client.cookies.set(name, value);
    const answer = await client.get(`${ANALYTICS_API.dashboard}?from=2001-01-01&to=2001-01-02`);
    expect(answer.body).toMatchObject({ posthogHost: 'https://eu.i.posthog.com', series: [] });
  });

  it('gives a signed-out visitor, a member and another site nothing', async () => {
    const path = `${ANALYTICS_API.dashboard}?from=2001-03-10&to=2001-03-11`;
    expect((await api.client().get(path)).status).toBe(401);
    expect((await (await api.member()).client.get(path)).body).toEqual({ error: { code: 'FORBIDDEN' } });
    const client = await staff();
    expect((await client.request('GET', path, undefined, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await client.request('GET', path, undefined, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
  });

  it('answers for the named periods and for the first and the last days there are', async () => {
    const client = await staff();
    for (const query of ['period=today', 'period=7d', 'period=30d', 'period=90d']) {
      expect((await client.get(`${ANALYTICS_API.dashboard}?${query}`)).status, query).toBe(200);
    }
    expect((await client.get(`${ANALYTICS_API.dashboard}?from=0001-01-01&to=0001-01-02`)).status).toBe(200);
    expect((await client.get(`${ANALYTICS_API.dashboard}?from=9999-12-30&to=9999-12-31`)).status).toBe(200);
  });

  it('refuses a range or a filter that makes no sense', async () => {
    const client = await staff();
    const cases: [string, Record<string, string>][] = [
      ['', { from: 'MISSING_REQUIRED_FIELD', to: 'MISSING_REQUIRED_FIELD' }],
      ['?period=year', { period: 'INVALID_REQUEST' }],
      ['?from=2026-01-10&to=2026-01-01', { to: 'INVALID_DATE_RANGE' }],
      ['?from=2024-01-01&to=2026-01-01', { to: 'INVALID_DATE_RANGE' }],
      ['?from=2026-02-31&to=2026-03-01', { from: 'INVALID_DATE_RANGE' }],
      ["?from=2026-01-01'--&to=2026-01-02", { from: 'INVALID_DATE_RANGE' }],
      // Year 0 is a valid ISO date, but no date PostgreSQL takes (it answered 500).
      ['?from=0000-01-01&to=0000-01-02', { from: 'INVALID_DATE_RANGE', to: 'INVALID_DATE_RANGE' }],
      ['?from=0000-12-31&to=0001-01-01', { from: 'INVALID_DATE_RANGE' }],
      [`?period=7d&page=${'x'.repeat(1025)}`, { page: 'INVALID_REQUEST' }],
      ['?period=7d&referrer=a%00b', { referrer: 'INVALID_REQUEST' }],
    ];
    for (const [query, fields] of cases) {
      expect(await client.get(`${ANALYTICS_API.dashboard}${query}`), query).toMatchObject({
        status: 400,
        body: { error: { code: 'VALIDATION_ERROR', fields } },
      });
    }
  });
});
