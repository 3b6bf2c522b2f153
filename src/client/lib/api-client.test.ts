import { afterEach, describe, expect, it, vi } from 'vitest';
import { callApi, retryAfterSeconds } from './api-client.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const answer = (status: number, body?: unknown) =>
  vi.fn(async () => new Response(body === undefined ? null : JSON.stringify(body), { status }));

describe('callApi', () => {
  it('posts JSON with the site’s cookies and passes the answer on', async () => {
    const fetch = answer(200, { account: { name: 'Ada' } });
    vi.stubGlobal('fetch', fetch);
    expect(await callApi('/api/x', { a: 1 })).toEqual({ ok: true, data: { account: { name: 'Ada' } } });
    expect(fetch).toHaveBeenCalledWith(
      '/api/x',
      expect.objectContaining({
        method: 'POST',
        body: '{"a":1}',
        headers: { 'Content-Type': 'application/json' },
        credentials: 'same-origin',
      }),
    );
  });

  it('gets when there is no body', async () => {
    const fetch = answer(200, {});
    vi.stubGlobal('fetch', fetch);
    await callApi('/api/session');
    expect(fetch).toHaveBeenCalledWith('/api/session', expect.objectContaining({ method: 'GET', headers: {} }));
  });

  it('sends a file as itself, typed as the file is, with the method asked for', async () => {
    const fetch = answer(200, {});
    vi.stubGlobal('fetch', fetch);
    const logo = new Blob(['<svg/>'], { type: 'image/svg+xml' });
    await callApi('/api/logo', logo, { method: 'PUT' });
    expect(fetch).toHaveBeenCalledWith(
      '/api/logo',
      expect.objectContaining({ method: 'PUT', body: logo, headers: { 'Content-Type': 'image/svg+xml' } }),
    );
  });

  it('names a 413 without a code as the caller says (a proxy refused the upload)', async () => {
    vi.stubGlobal('fetch', answer(413, '<html>Request Entity Too Large</html>'));
    expect(await callApi('/api/logo', {}, { tooLarge: 'LOGO_TOO_LARGE' })).toEqual({
      ok: false,
      code: 'LOGO_TOO_LARGE',
    });
    expect(await callApi('/api/logo', {})).toEqual({ ok: false, code: 'UNKNOWN_ERROR' });
  });

  it('passes on the server’s code and fields', async () => {
    vi.stubGlobal(
      'fetch',
      answer(409, { error: { code: 'EMAIL_ALREADY_EXISTS', fields: { email: 'EMAIL_ALREADY_EXISTS' } } }),
    );
    expect(await callApi('/api/x', {})).toEqual({
      ok: false,
      code: 'EMAIL_ALREADY_EXISTS',
      fields: { email: 'EMAIL_ALREADY_EXISTS' },
    });
  });

  it.each([
    [500, undefined, 'SERVER_ERROR'],
    [502, '<html>Bad gateway</html>', 'SERVER_ERROR'],
    [504, undefined, 'REQUEST_TIMEOUT'],
    [408, undefined, 'REQUEST_TIMEOUT'],
    [418, { error: { code: 'NOT_A_CODE' } }, 'UNKNOWN_ERROR'],
  ])('turns a %i without a known code into a code of the catalogue', async (status, body, code) => {
    vi.stubGlobal('fetch', answer(status, body));
    expect(await callApi('/api/x', {})).toEqual({ ok: false, code });
  });

  it('says NETWORK_ERROR when the server cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect(await callApi('/api/x', {})).toEqual({ ok: false, code: 'NETWORK_ERROR' });
  });

  it('says REQUEST_TIMEOUT when the server is too slow', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new DOMException('The operation timed out.', 'TimeoutError');
      }),
    );
    expect(await callApi('/api/x', {})).toEqual({ ok: false, code: 'REQUEST_TIMEOUT' });
  });

  it('carries how long to wait from Retry-After', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: { code: 'TOO_MANY_REQUESTS' } }), {
            status: 429,
            headers: { 'Retry-After': '754' },
          }),
      ),
    );
    expect(await callApi('/api/x', {})).toEqual({ ok: false, code: 'TOO_MANY_REQUESTS', retryAfter: 754 });
  });
});

describe('retryAfterSeconds', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds(' 0 ', now)).toBe(0);
    expect(retryAfterSeconds('Mon, 23 Nov 2026 10:02:30 GMT', now)).toBe(150);
    expect(retryAfterSeconds('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds(null, now)).toBeUndefined();
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds('-5', now)).toBeUndefined();
  });
});
