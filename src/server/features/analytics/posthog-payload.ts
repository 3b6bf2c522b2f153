import { gunzipSync } from 'node:zlib';
import { isLanguage, type Language } from '#common/languages.ts';

/** What a request body may grow to once decompressed: a bound against zip bombs. */
const MAX_DECODED_BYTES = 4 * 1024 * 1024;
const MAX_EVENTS = 1000;
const MAX_NAME = 200;
const MAX_PATH = 1024;
/**
 * Deeper than posthog-js ever nests (its properties are a few levels at most). A payload nested
 * deeper is refused before anything walks it recursively (JSON.stringify, when forwarding, would
 * overflow the stack).
 */
const MAX_DEPTH = 64;
const MAX_HOST = 253;
/** A client clock further off than this is not believed; the time of arrival is used instead. */
const MAX_CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

export interface AnalyticsEvent {
  uuid: string | null;
  event: string;
  distinctId: string;
  path: string | null;
  language: Language | null;
  occurredAt: Date;
  /** The host of the other site the visitor came from; absent or null when none. */
  referrerHost?: string | null;
  /** The primary subtag of the browser's language ("th" of "th-TH"), when the event says it. */
  browserLanguage?: string | null;
  /** The address's utm_source and utm_campaign, when it had them. */
  utmSource?: string | null;
  utmCampaign?: string | null;
}

const MAX_CAMPAIGN = 100;

/** posthog-js sends `$browser_language` (as does the beacon); only its primary subtag is kept. */
function browserLanguageOf(properties: Record<string, unknown>): string | null {
  const tag = boundedString(properties.$browser_language, 35)?.toLowerCase().split(/[-_]/)[0];
  return tag && /^[a-z]{2,3}$/.test(tag) ? tag : null;
}

/** A campaign parameter of the page's address (posthog-js also copies them into the properties). */
function campaignOf(properties: Record<string, unknown>, name: 'utm_source' | 'utm_campaign'): string | null {
  let value = boundedString(properties[name], MAX_CAMPAIGN);
  if (!value) {
    try {
      const url = boundedString(properties.$current_url, MAX_PATH * 2);
      value = url ? new URL(url).searchParams.get(name) : null;
    } catch {
      value = null;
    }
  }
  const trimmed = value
    ?.trim()
    .toLowerCase()
    .slice(0, MAX_CAMPAIGN)
    .replace(/\p{Cc}/gu, '');
  return trimmed || null;
}

/** Whether `value` nests no deeper than `max` arrays and objects; walked without recursion. */
export function nestsWithin(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [node, depth] = entry;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return false;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return true;
}

/**
 * The JSON inside a body as posthog-js sends it: gzip (`compression=gzip-js`), a form with a
 * base64 `data` field (`compression=base64`), or plain JSON. Null when it is none of them, or when
 * it nests deeper than any real payload.
 */
export function decodePosthogBody(body: Uint8Array): unknown {
  try {
    let text: string;
    if (body[0] === 0x1f && body[1] === 0x8b) {
      text = gunzipSync(body, { maxOutputLength: MAX_DECODED_BYTES }).toString('utf8');
    } else {
      text = Buffer.from(body).toString('utf8');
      if (text.startsWith('data=')) {
        const data = new URLSearchParams(text).get('data') ?? '';
        text = Buffer.from(data, 'base64').toString('utf8');
      }
    }
    const payload: unknown = JSON.parse(text);
    return nestsWithin(payload, MAX_DEPTH) ? payload : null;
  } catch {
    return null;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A non-empty string up to `max` long; PostgreSQL refuses NUL in text, so a string with one is unusable. */
const boundedString = (value: unknown, max: number): string | null =>
  typeof value === 'string' && value.length > 0 && value.length <= max && !value.includes('\u0000') ? value : null;

function pathOf(properties: Record<string, unknown>): string | null {
  const pathname = boundedString(properties.$pathname, MAX_PATH);
  if (pathname) return pathname;
  const url = boundedString(properties.$current_url, MAX_PATH * 2);
  if (!url) return null;
  try {
    return new URL(url).pathname.slice(0, MAX_PATH);
  } catch {
    return null;
  }
}

const hostOf = (url: string | null): string | null => {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
};

/**
 * The host of the page that linked to this one (posthog-js sends `$referrer`, or `$direct`), when it
 * is another site: a visitor moving between this site's pages was not referred.
 */
function referrerHostOf(properties: Record<string, unknown>): string | null {
  const referrer = hostOf(boundedString(properties.$referrer, MAX_PATH * 2));
  if (!referrer || referrer.length > MAX_HOST) return null;
  const here =
    boundedString(properties.$host, MAX_HOST)?.toLowerCase().replace(/:\d+$/, '') ??
    hostOf(boundedString(properties.$current_url, MAX_PATH * 2));
  return referrer === here ? null : referrer;
}

function timeOf(item: Record<string, unknown>, now: Date): Date {
  const given = typeof item.timestamp === 'string' ? Date.parse(item.timestamp) : Number.NaN;
  return Math.abs(given - now.getTime()) <= MAX_CLOCK_SKEW_MS ? new Date(given) : now;
}

function eventOf(item: unknown, now: Date): AnalyticsEvent | null {
  if (!isRecord(item) || !isRecord(item.properties)) return null;
  const event = boundedString(item.event, MAX_NAME);
  const rawId = item.properties.distinct_id;
  const distinctId = boundedString(typeof rawId === 'number' ? String(rawId) : rawId, MAX_NAME);
  if (!event || !distinctId) return null;
  const path = pathOf(item.properties);
  const language = path?.split('/')[1];
  return {
    uuid: boundedString(item.uuid, 64),
    event,
    distinctId,
    path,
    language: isLanguage(language) ? language : null,
    occurredAt: timeOf(item, now),
    referrerHost: referrerHostOf(item.properties),
    browserLanguage: browserLanguageOf(item.properties),
    utmSource: campaignOf(item.properties, 'utm_source'),
    utmCampaign: campaignOf(item.properties, 'utm_campaign'),
  };
}

/**
 * The events of a decoded capture payload (a list, a `{ batch }` or a single event), keeping the
 * few fields the embedded report needs and dropping malformed ones; null when the payload has no
 * event shape at all, or when none of its events is usable.
 */
export function eventsOf(payload: unknown, now = new Date()): AnalyticsEvent[] | null {
  const items = Array.isArray(payload)
    ? payload
    : isRecord(payload) && Array.isArray(payload.batch)
      ? payload.batch
      : isRecord(payload) && 'event' in payload
        ? [payload]
        : null;
  if (!items) return null;
  const events = items
    .slice(0, MAX_EVENTS)
    .map((item) => eventOf(item, now))
    .filter((event): event is AnalyticsEvent => event !== null);
  return items.length > 0 && events.length === 0 ? null : events;
}

/** The same payload with the project key the upstream expects in place of the browser's placeholder. */
export function withProjectKey(payload: unknown, key: string): unknown {
  const keyed = (item: unknown) => {
    if (!isRecord(item)) return item;
    const copy: Record<string, unknown> = { ...item };
    if ('token' in copy) copy.token = key;
    if ('api_key' in copy) copy.api_key = key;
    if (isRecord(copy.properties)) copy.properties = { ...copy.properties, token: key };
    return copy;
  };
  if (Array.isArray(payload)) return payload.map(keyed);
  const top = keyed(payload);
  return isRecord(top) && Array.isArray(top.batch) ? { ...top, batch: top.batch.map(keyed) } : top;
}
