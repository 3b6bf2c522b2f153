import { describe, expect, it } from 'vitest';
import { decodePosthogBody, eventsOf } from '#server/features/analytics/index.ts';
import { type BeaconWindow, countPageView } from './page-view-beacon.ts';

const NAMES = { consent: 'consent', visitor: '_fpid', endpoint: '/api/posthog/e/', token: 'first-party' };

/** A page in miniature: its cookies, what it sent, and its hide and leave events on demand. */
function page(cookie: string, options: { beacon?: boolean } = {}) {
  const sent: { url: string; body: string; how: 'beacon' | 'fetch' }[] = [];
  const listeners: Record<string, (() => void)[]> = { pagehide: [], visibilitychange: [] };
  const w = {
    document: {
      cookie,
      referrer: '',
      visibilityState: 'visible',
      addEventListener: (type: string, listener: () => void) => listeners[type]?.push(listener),
    },
    location: { href: 'https://example.com/de/terms?utm=x' },
    navigator: {
      language: 'th-TH',
      sendBeacon:
        options.beacon === false
          ? undefined
          : (url: string, body: string) => {
              sent.push({ url, body, how: 'beacon' });
              return true;
            },
    },
    crypto,
    addEventListener: (type: string, listener: () => void) => listeners[type]?.push(listener),
    fetch: async (url: string, init: RequestInit) => {
      sent.push({ url, body: String(init.body), how: 'fetch' });
    },
  } satisfies BeaconWindow;
  return {
    w,
    sent,
    events: () => sent.map((s) => JSON.parse(s.body)),
    hide: () => {
      w.document.visibilityState = 'hidden';
      for (const listener of listeners.visibilitychange ?? []) listener();
    },
    leave: () => {
      for (const listener of listeners.pagehide ?? []) listener();
    },
  };
}

describe('countPageView', () => {
  it('counts nothing without consent', () => {
    for (const cookie of ['', 'consent=denied', 'consent=pending; _fpid=v1.a.b', 'notconsent=granted']) {
      const p = page(cookie);
      expect(countPageView(p.w, NAMES)).toBeNull();
      p.leave();
      expect(p.sent).toEqual([]);
    }
  });

  it('sends when asked under the identifier the cookie holds, once, in a shape the capture store accepts', () => {
    const p = page('lang=de; consent=granted; _fpid=v1.abc.def');
    const view = countPageView(p.w, NAMES);
    expect(p.sent).toEqual([]);
    view?.sendKnown();
    expect(view?.sent).toBe(true);
    p.hide();
    p.leave();
    view?.send('v1.other.id');
    expect(p.sent).toHaveLength(1);
    expect(p.sent[0]).toMatchObject({ url: '/api/posthog/e/', how: 'beacon' });
    const [event] = p.events();
    expect(event).toMatchObject({
      event: '$pageview',
      uuid: view?.uuid,
      properties: {
        distinct_id: 'v1.abc.def',
        token: 'first-party',
        $current_url: 'https://example.com/de/terms?utm=x',
        $pathname: '/de/terms',
        $referrer: '$direct',
        $browser_language: 'th-TH',
      },
    });
    expect(event.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Math.abs(Date.parse(event.timestamp) - Date.now())).toBeLessThan(5_000);
    // What the embedded store keeps of it: the page, language and uuid, not the query.
    const [stored] = eventsOf(decodePosthogBody(new TextEncoder().encode(p.sent[0]?.body))) ?? [];
    expect(stored).toMatchObject({
      uuid: view?.uuid,
      event: '$pageview',
      path: '/de/terms',
      language: 'de',
      browserLanguage: 'th',
    });
  });

  it('without an identifier, waits: sent under the one handed over later, or anonymously when hidden first', () => {
    const later = page('consent=granted');
    const view = countPageView(later.w, NAMES);
    expect(later.sent).toEqual([]);
    view?.send('v1.new.id');
    later.hide();
    expect(later.events().map((e) => e.properties.distinct_id)).toEqual(['v1.new.id']);

    const bounce = page('consent=granted');
    const left = countPageView(bounce.w, NAMES);
    bounce.hide();
    bounce.leave();
    expect(bounce.sent).toHaveLength(1);
    const [event] = bounce.events();
    expect(event.properties.distinct_id).toBe(left?.anonymousId);
    expect(event.properties.$process_person_profile).toBe(false);
    expect(left?.anonymousId).not.toBe(left?.uuid);

    const nobody = page('consent=granted');
    countPageView(nobody.w, NAMES)?.sendKnown();
    expect(nobody.sent).toEqual([]);
  });

  it('left before it was sent, goes under the identifier the cookie holds', () => {
    const p = page('consent=granted; _fpid=v1.abc.def');
    const view = countPageView(p.w, NAMES);
    p.leave();
    p.hide();
    expect(p.events().map((e) => e.properties.distinct_id)).toEqual(['v1.abc.def']);
    expect(view?.anonymousId).toBeNull();
  });

  it('sends nothing once consent was withdrawn before it went', () => {
    const p = page('consent=granted');
    countPageView(p.w, NAMES);
    p.w.document.cookie = 'consent=denied';
    p.leave();
    expect(p.sent).toEqual([]);
  });

  it('uses fetch with keepalive where there is no beacon', () => {
    const p = page('consent=granted; _fpid=v1.a.b', { beacon: false });
    countPageView(p.w, NAMES)?.sendKnown();
    expect(p.sent.map((s) => s.how)).toEqual(['fetch']);
  });

  it('makes a version 4 uuid where randomUUID is missing', () => {
    const p = page('consent=granted; _fpid=v1.a.b');
    const view = countPageView(
      { ...p.w, crypto: { getRandomValues: (array: Uint8Array<ArrayBuffer>) => crypto.getRandomValues(array) } },
      NAMES,
    );
    expect(view?.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
