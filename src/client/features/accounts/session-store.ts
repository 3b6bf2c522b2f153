import { useEffect, useSyncExternalStore } from 'react';
import { type ApiResult, callApi } from '#client/lib/api-client.ts';
import { ACCOUNT_API, type SessionAnswer } from '#common/account-api.ts';

// Written out rather than made with lib/create-store.ts: this module comes with the header of every
// page for a signed-in visitor, where a helper shared with the chat would be one more chunk to
// fetch (decision 096).

/** Who is signed in, as the pages read it. */
export interface SessionState extends SessionAnswer {
  /** Nobody, since the visitor signed out on this page: no page takes it for a session lost. */
  signedOut?: true;
}

/** undefined until the server has been asked. */
let current: SessionState | undefined;
let asked: Promise<void> | null = null;
const listeners = new Set<() => void>();

function set(session: SessionState) {
  current = session;
  for (const listener of listeners) listener();
}

/** Asks the server who is signed in, once per page load; the pages tell the store of every change after that. */
export function askSession(): Promise<void> {
  asked ??= callApi<SessionAnswer>(ACCOUNT_API.session).then((result) =>
    set(result.ok ? result.data : { account: null }),
  );
  return asked;
}

/** Who is signed in now, outside React (undefined while unknown). */
export const currentSession = () => current;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * Who is signed in (undefined while unknown). The prerendered page cannot know, so the server is
 * asked after hydration.
 */
export function useSession(): SessionState | undefined {
  const session = useSyncExternalStore(
    subscribe,
    () => current,
    () => undefined,
  );
  useEffect(() => {
    void askSession();
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
  if (result.ok) {
    asked = Promise.resolve();
    set({ account: null, signedOut: true });
  }
  return result;
}
