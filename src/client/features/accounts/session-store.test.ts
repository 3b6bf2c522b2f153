import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';

/** The server as fetch reaches it: each path answers with a status and a body, and every call is kept. */
function server(answers: Record<string, [number, unknown]>) {
  const fetch = vi.fn(async (path: string) => {
    const [status, body] = answers[path] ?? [404, { error: { code: 'NOT_FOUND' } }];
    return new Response(JSON.stringify(body), { status });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const ada = { name: 'Ada' };

// The store holds one page load's answer: each test loads the module afresh.
let store: typeof import('./session-store.ts');
beforeEach(async () => {
  vi.resetModules();
  store = await import('./session-store.ts');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('session store', () => {
  it('is unknown until the server has been asked', () => {
    expect(store.currentSession()).toBeUndefined();
  });

  it('renders as unknown on the server, even once known, and asks nothing there', () => {
    const fetch = server({});
    store.setSignedIn(ada);
    function Header() {
      return createElement('p', null, store.useSession()?.account?.name ?? 'unknown');
    }
    expect(renderToString(createElement(Header))).toBe('<p>unknown</p>');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('asks the server once per page load, however many components want to know', async () => {
    const fetch = server({ [ACCOUNT_API.session]: [200, { account: ada }] });
    await Promise.all([store.askSession(), store.askSession()]);
    await store.askSession();
    expect(store.currentSession()).toEqual({ account: ada });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('counts a failed question as signed out, rather than unknown for ever', async () => {
    server({ [ACCOUNT_API.session]: [500, null] });
    await store.askSession();
    expect(store.currentSession()).toEqual({ account: null });
  });

  it('takes a sign-in from the pages and asks the server no more', async () => {
    const fetch = server({ [ACCOUNT_API.session]: [200, { account: null }] });
    store.setSignedIn(ada);
    await store.askSession();
    expect(store.currentSession()).toEqual({ account: ada });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('signs out on the server, then here, saying the visitor left on purpose', async () => {
    const fetch = server({ [ACCOUNT_API.logout]: [200, {}] });
    store.setSignedIn(ada);
    expect(await store.signOut()).toEqual({ ok: true, data: {} });
    expect(fetch).toHaveBeenCalledWith(ACCOUNT_API.logout, expect.objectContaining({ method: 'POST' }));
    expect(store.currentSession()).toEqual({ account: null, signedOut: true });
    // A session the pages found gone is not a sign-out.
    store.setSignedIn(null);
    expect(store.currentSession()).toEqual({ account: null });
  });

  it('stays signed in when the server refuses the sign-out, and says why', async () => {
    server({ [ACCOUNT_API.logout]: [403, { error: { code: 'FORBIDDEN' } }] });
    store.setSignedIn(ada);
    expect(await store.signOut()).toEqual({ ok: false, code: 'FORBIDDEN' });
    expect(store.currentSession()).toEqual({ account: ada });
  });
});
