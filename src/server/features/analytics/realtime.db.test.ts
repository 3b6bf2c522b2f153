import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { ANALYTICS_API, type RealtimeAnswer } from '#common/analytics-api.ts';
import { describeApi } from '#tests/support/api.ts';
import { giveSecondFactor } from '#tests/support/second-factor.ts';
import { storeEvents } from './events-store.ts';
import type { AnalyticsEvent } from './posthog-payload.ts';
import { realtime } from './realtime.ts';

const tag = randomBytes(3).toString('hex');
const event = (distinctId: string, path: string, at: Date, name = '$pageview'): AnalyticsEvent => ({
  uuid: `${tag}-${randomBytes(6).toString('hex')}`,
  event: name,
  distinctId: `${tag}-${distinctId}`,
  path,
  language: 'en',
  occurredAt: at,
});

describeApi('who is on the site right now', (api) => {
  it('counts the visitors of the last five minutes, each on the page they saw last', async () => {
    // Far from today, so that no other test's events count.
    const now = new Date('2002-05-05T12:00:00Z');
    const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
    await storeEvents(api.db(), [
      event('a', '/en', ago(60)),
      event('a', '/en/about', ago(30)),
      event('b', '/en', ago(120)),
      event('c', '/th', ago(10 * 60)),
      event('d', '/en/contact', ago(60), '$pageleave'),
    ]);
    expect(await realtime(api.db(), now)).toEqual({
      visitors: 3,
      pages: [
        { path: '/en', visitors: 1 },
        { path: '/en/about', visitors: 1 },
      ],
      at: now.toISOString(),
    });
    expect((await realtime(api.db(), new Date('2002-05-05T12:30:00Z'))).visitors).toBe(0);
  });

  it('answers operators and admins, not editors', async () => {
    const member = await api.member();
    await giveSecondFactor(api.db(), member.person.email);
    for (const [role, status] of [
      ['operator', 200],
      ['editor', 403],
    ] as const) {
      await api.db().query('UPDATE accounts SET role = $2 WHERE email = $1', [member.person.email, role]);
      const answer = await member.client.get(ANALYTICS_API.realtime);
      expect(answer.status).toBe(status);
      if (status === 200)
        expect(answer.body as unknown as RealtimeAnswer).toMatchObject({ visitors: expect.any(Number) });
    }
  });
});
