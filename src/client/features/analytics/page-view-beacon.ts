/** What counting a page view needs of the browser: `window` in a page, a stand-in in tests. */
export interface BeaconWindow {
  document: {
    cookie: string;
    referrer: string;
    visibilityState: string;
    addEventListener(type: 'visibilitychange', listener: () => void): void;
  };
  location: { href: string };
  navigator: { language?: string; sendBeacon?(url: string, data: string): boolean };
  crypto: { randomUUID?(): string; getRandomValues(array: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> };
  addEventListener(type: 'pagehide', listener: () => void): void;
  fetch(url: string, init: RequestInit): Promise<unknown>;
}

/** The names the beacon reads and writes to, from src/common (passed in: the inline script imports nothing). */
export interface BeaconNames {
  /** The consent cookie; only `granted` counts. */
  consent: string;
  /** The visitor identifier cookie, when the visitor has one. */
  visitor: string;
  /** posthog-js's capture endpoint on this site. */
  endpoint: string;
  /** The project key posthog-js is started with (the server swaps in the real one). */
  token: string;
}

/** A page view counted before posthog-js runs. */
export interface PageView {
  /** The event's uuid, so that the store keeps one copy however often it arrives. */
  uuid: string;
  url: string;
  /** Whether it has been sent; it is sent once. */
  sent: boolean;
  /**
   * Sends it now (unless it went already, or consent has been withdrawn since) under the visitor
   * identifier, or anonymously with `null`: under a random id that posthog-js then takes as its
   * anonymous id, without a person profile.
   */
  send(distinctId: string | null): void;
  /** Sends it now under the identifier the visitor cookie holds, if it holds one. */
  sendKnown(): void;
  /** The id an anonymous view went under, if it went anonymously. */
  anonymousId: string | null;
}

/**
 * Counts a page view of a consenting visitor with one small beacon to the first-party capture
 * endpoint, in the shape posthog-js sends (`$pageview` with its uuid, time and address), long before
 * posthog-js could: a visit of a second is counted too. Returns null without consent.
 *
 * Counting only listens; nothing goes out until `sendKnown()` (under the identifier the cookie
 * holds, if any) or `send(id)` when the app hands one over. If the page is hidden or left first, it
 * goes then: under the cookie's identifier, or anonymously. Either way once. It is also part of
 * every page's inline script (see document.ts), which counts as the page starts and sends after the
 * paint, so the body refers to nothing outside itself.
 */
export function countPageView(w: BeaconWindow, names: BeaconNames, url = w.location.href): PageView | null {
  const cookie = (name: string) => {
    const found = w.document.cookie.split('; ').find((part) => part.indexOf(`${name}=`) === 0);
    return found ? decodeURIComponent(found.slice(name.length + 1)) : null;
  };
  if (cookie(names.consent) !== 'granted') return null;
  const uuid = () => {
    if (w.crypto.randomUUID) return w.crypto.randomUUID();
    const bytes = w.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = ((bytes[6] ?? 0) & 15) | 64;
    bytes[8] = ((bytes[8] ?? 0) & 63) | 128;
    const hex = Array.from(bytes, (byte) => (byte + 256).toString(16).slice(1)).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
  const timestamp = new Date().toISOString();
  const view: PageView = {
    uuid: uuid(),
    url,
    sent: false,
    anonymousId: null,
    sendKnown: () => {
      const known = cookie(names.visitor);
      if (known) view.send(known);
    },
    send: (distinctId) => {
      if (view.sent || cookie(names.consent) !== 'granted') return;
      view.sent = true;
      const properties: Record<string, unknown> = {
        distinct_id: distinctId,
        token: names.token,
        $current_url: url,
        $pathname: new URL(url).pathname,
        $referrer: w.document.referrer || '$direct',
        $browser_language: w.navigator.language,
        $lib: 'web-beacon',
      };
      if (!distinctId) {
        view.anonymousId = uuid();
        properties.distinct_id = view.anonymousId;
        properties.$process_person_profile = false;
      }
      const body = JSON.stringify({ event: '$pageview', uuid: view.uuid, timestamp, properties });
      const queued = w.navigator.sendBeacon ? w.navigator.sendBeacon(names.endpoint, body) : false;
      if (!queued) w.fetch(names.endpoint, { method: 'POST', body, keepalive: true }).catch(() => {});
    },
  };
  const leave = () => view.send(cookie(names.visitor));
  w.addEventListener('pagehide', leave);
  w.document.addEventListener('visibilitychange', () => {
    if (w.document.visibilityState === 'hidden') leave();
  });
  return view;
}
