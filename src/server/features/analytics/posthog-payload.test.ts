import { describe, expect, it } from 'vitest';
import { decodePosthogBody, eventsOf, withProjectKey } from './posthog-payload.ts';

const NOW = new Date('2026-11-21T12:00:00Z');
const event = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  event: '$pageview',
  properties: { distinct_id: 'v1.a', ...properties },
  ...extra,
});

describe('eventsOf', () => {
  it('keeps the page path and its language, never the query', () => {
    const [first] = eventsOf([event({ $current_url: 'https://example.com/fr/contact?email=a@b.c#x' })], NOW) ?? [];
    expect(first).toMatchObject({ path: '/fr/contact', language: 'fr', distinctId: 'v1.a' });
    const [other] = eventsOf([event({ $pathname: '/es/nope' })], NOW) ?? [];
    expect(other).toMatchObject({ path: '/es/nope', language: null });
  });

  it('keeps the host of another site that referred the visitor, and nothing of the page', () => {
    const referred = (properties: Record<string, unknown>) =>
      eventsOf([event({ $current_url: 'https://example.com/en', $host: 'example.com', ...properties })], NOW)?.[0]
        ?.referrerHost;
    expect(referred({ $referrer: 'https://www.Search.example/q?secret=1' })).toBe('www.search.example');
    expect(referred({ $referrer: 'https://example.com/it/about' })).toBeNull();
    expect(referred({ $referrer: '$direct' })).toBeNull();
    expect(referred({ $referrer: 'not a url' })).toBeNull();
    expect(referred({})).toBeNull();
  });

  it('believes the client’s clock only within a day', () => {
    const near = '2026-11-21T11:00:00.000Z';
    expect(eventsOf([event({}, { timestamp: near })], NOW)?.[0]?.occurredAt.toISOString()).toBe(near);
    for (const timestamp of ['1999-01-01T00:00:00Z', '2099-01-01T00:00:00Z', 'yesterday', 42]) {
      expect(eventsOf([event({}, { timestamp })], NOW)?.[0]?.occurredAt).toEqual(NOW);
    }
  });

  it('drops what it cannot use and bounds what it keeps', () => {
    const long = 'x'.repeat(201);
    const events = eventsOf(
      [
        event({}),
        event({ distinct_id: long }),
        { event: long, properties: { distinct_id: 'v1.b' } },
        event({}, { uuid: long }),
      ],
      NOW,
    );
    expect(events).toHaveLength(2);
    expect(events?.[1]?.uuid).toBeNull();
    expect(
      eventsOf(
        Array.from({ length: 5000 }, () => event({})),
        NOW,
      ),
    ).toHaveLength(1000);
    expect(eventsOf([], NOW)).toEqual([]);
    expect(eventsOf('text', NOW)).toBeNull();
  });
});

describe('withProjectKey', () => {
  it('puts the company’s key wherever posthog-js put its own', () => {
    expect(withProjectKey({ api_key: 'first-party', batch: [event({ token: 'first-party' })] }, 'phc_k')).toEqual({
      api_key: 'phc_k',
      batch: [event({ token: 'phc_k' })],
    });
    expect(withProjectKey({ token: 'first-party', distinct_id: 'v1.a' }, 'phc_k')).toEqual({
      token: 'phc_k',
      distinct_id: 'v1.a',
    });
    expect(withProjectKey([event({})], 'phc_k')).toEqual([event({ token: 'phc_k' })]);
  });
});

describe('decodePosthogBody', () => {
  it('refuses a payload nested deeper than any posthog-js sends, without recursing', () => {
    expect(decodePosthogBody(Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).toBeNull();
    const nested = JSON.stringify([{ event: 'e', properties: { $set: { a: { b: [1, { c: 2 }] } } } }]);
    expect(decodePosthogBody(Buffer.from(nested))).toEqual(JSON.parse(nested));
  });
});
