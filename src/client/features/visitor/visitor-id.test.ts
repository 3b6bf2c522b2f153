import { describe, expect, it, vi } from 'vitest';
import type { FingerprintRecord } from '#common/fingerprint.ts';
import { COOKIE_WRITE_DELAY_MS, obtainVisitorId, type VisitorIdPorts } from './visitor-id.ts';

const RECORD: FingerprintRecord = {
  visitorId: '0123456789abcdef0123456789abcdef',
  components: { canvas: 'aa' },
  userAgent: 'TestBrowser/1.0',
  timestamp: 1_790_000_000_000,
};

/** A browser in miniature: a cookie jar, a server answer and a clock the test moves by hand. */
function browser(options: { cookie?: string | null; answer?: () => Promise<Response> } = {}) {
  let cookie = options.cookie ?? null;
  const timers: { at: number; callback: () => void }[] = [];
  let now = 0;
  const ports = {
    readCookie: vi.fn(() => cookie),
    writeCookie: vi.fn((value: string) => {
      cookie = value;
    }),
    computeFingerprint: vi.fn(async () => RECORD),
    fetch: vi.fn(options.answer ?? (async () => Response.json({ fpid: 'v1.issued.tag' }))),
    setTimeout: vi.fn((callback: () => void, ms: number) => timers.push({ at: now + ms, callback })),
  } satisfies VisitorIdPorts;
  return {
    ports,
    setCookie: (value: string | null) => {
      cookie = value;
    },
    advance: (ms: number) => {
      now += ms;
      for (const timer of timers.filter((t) => t.at <= now)) {
        timers.splice(timers.indexOf(timer), 1);
        timer.callback();
      }
    },
  };
}

describe('obtainVisitorId', () => {
  it('uses the cookie when present and sends nothing', async () => {
    const { ports, advance } = browser({ cookie: 'v1.stored.tag' });
    expect(await obtainVisitorId(ports)).toEqual({ visitorId: 'v1.stored.tag', loading: false, error: null });
    advance(1_000);
    expect(ports.computeFingerprint).not.toHaveBeenCalled();
    expect(ports.fetch).not.toHaveBeenCalled();
    expect(ports.writeCookie).not.toHaveBeenCalled();
  });

  it('without a cookie, sends the record once and writes the cookie at once', async () => {
    const { ports, advance } = browser();
    expect(await obtainVisitorId(ports)).toEqual({ visitorId: 'v1.issued.tag', loading: false, error: null });
    expect(ports.fetch).toHaveBeenCalledTimes(1);
    const [url, init] = ports.fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/fingerprint');
    expect(init.method).toBe('POST');
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(JSON.parse(init.body as string)).toEqual(RECORD);
    // At once: a page opened or a form sent right after the answer already carries it.
    expect(ports.writeCookie).toHaveBeenCalledTimes(1);
    expect(ports.writeCookie).toHaveBeenCalledWith('v1.issued.tag');

    advance(COOKIE_WRITE_DELAY_MS);
    expect(ports.writeCookie).toHaveBeenCalledTimes(1);
  });

  it('a second page load after the answer finds the cookie and sends nothing', async () => {
    const first = browser();
    await obtainVisitorId(first.ports);
    const stored = first.ports.writeCookie.mock.calls[0]?.[0] ?? null;
    const second = browser({ cookie: stored });
    expect((await obtainVisitorId(second.ports)).visitorId).toBe('v1.issued.tag');
    expect(second.ports.fetch).not.toHaveBeenCalled();
  });

  it('about 100 ms later, writes the cookie again if it is missing or holds something else', async () => {
    for (const by100ms of [null, 'v1.other.tag']) {
      const { ports, advance, setCookie } = browser();
      await obtainVisitorId(ports);
      setCookie(by100ms);
      advance(COOKIE_WRITE_DELAY_MS - 1);
      expect(ports.writeCookie).toHaveBeenCalledTimes(1);
      advance(1);
      expect(ports.writeCookie).toHaveBeenCalledTimes(2);
      expect(ports.writeCookie).toHaveBeenLastCalledWith('v1.issued.tag');
    }
  });

  it('leaves a cookie that still holds the same value', async () => {
    const { ports, advance } = browser();
    await obtainVisitorId(ports);
    advance(COOKIE_WRITE_DELAY_MS);
    expect(ports.writeCookie).toHaveBeenCalledTimes(1);
  });

  it.each([
    [
      'a non-ok answer',
      async () => Response.json({ error: { code: 'TOO_MANY_REQUESTS' } }, { status: 429 }),
      'Edge function returned 429',
    ],
    ['an answer without fpid', async () => Response.json({ id: 'x' }), 'Edge function did not return fpid'],
    ['an empty fpid', async () => Response.json({ fpid: '' }), 'Edge function did not return fpid'],
    ['an answer of null', async () => Response.json(null), 'Edge function did not return fpid'],
    ['a network failure', async () => Promise.reject(new TypeError('Failed to fetch')), 'Failed to fetch'],
    [
      'a server that does not answer in time',
      async () => Promise.reject(new DOMException('signal timed out', 'TimeoutError')),
      'signal timed out',
    ],
    ['a failure without a message', async () => Promise.reject(new Error('')), 'Unknown error occurred'],
    ['something thrown that is not an error', async () => Promise.reject('nope'), 'Unknown error occurred'],
  ])('records %s as its error text and writes no cookie', async (_, answer, message) => {
    const { ports, advance } = browser({ answer });
    expect(await obtainVisitorId(ports)).toEqual({ visitorId: null, loading: false, error: message });
    advance(1_000);
    expect(ports.writeCookie).not.toHaveBeenCalled();
  });

  it('records a fingerprint that cannot be computed', async () => {
    const { ports } = browser();
    ports.computeFingerprint.mockRejectedValueOnce(new Error('canvas blocked'));
    expect((await obtainVisitorId(ports)).error).toBe('canvas blocked');
    expect(ports.fetch).not.toHaveBeenCalled();
  });
});
