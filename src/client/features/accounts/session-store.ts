import { useEffect, useSyncExternalStore } from 'react';
import { type ApiResult, callApi } from '#client/lib/api-client.ts';
import { ACCOUNT_API, type SessionAnswer } from '#common/account-api.ts';

/** undefined until the server has been asked. */
let current: SessionAnswer | undefined;
let asked: Promise<void> | null = null;
const listeners = new Set<() => void>();

function set(session: SessionAnswer) {
  current = session;
  for (const listener of listeners) listener();
}

/** Asks the server who is signed in, once per page load; the pages tell the store of every change after that. */
function askOnce() {
  asked ??= callApi<SessionAnswer>(ACCOUNT_API.session).then((result) =>
    set(result.ok ? result.data : { account: null }),
  );
  return asked;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * Who is signed in (undefined while unknown). The prerendered page cannot know, so the server is
 * asked after hydration.
 */
export function useSession(): SessionAnswer | undefined {
  const session = useSyncExternalStore(
    subscribe,
    () => current,
    () => undefined,
  );
  useEffect(() => {
    void askOnce();
  }, []);
  return session;
}

/** Called by the pages when someone signs in or out. */
export const setSignedIn = (account: SessionAnswer['account']) => {
  asked = Promise.resolve();
  set({ account });
};

/** Ends the session on the server, here too. */
export async function signOut(): Promise<ApiResult<unknown>> {
  const result = await callApi(ACCOUNT_API.logout, {});
  if (result.ok) setSignedIn(null);
  return result;
}
