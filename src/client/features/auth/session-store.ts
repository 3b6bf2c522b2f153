import { useEffect } from 'react';
import { type ApiResult, callApi } from '#client/lib/api-client.ts';
import { createStore } from '#client/lib/create-store.ts';
import { AUTH_API, type SessionAnswer } from '#common/account-api.ts';

/**
 * Who is signed in: undefined until the server has been asked. The prerendered page cannot know,
 * so it is made (and hydrates) with undefined.
 */
const session = createStore<SessionAnswer | undefined>(undefined, { serverSnapshot: () => undefined });
let asked: Promise<void> | null = null;

/** Asks the server who is signed in, once per page load; the pages tell the store of every change after that. */
export function askSession(): Promise<void> {
  asked ??= callApi<SessionAnswer>(AUTH_API.session).then((result) =>
    session.set(result.ok ? result.data : { account: null }),
  );
  return asked;
}

/** Who is signed in now, outside React (undefined while unknown). */
export const currentSession = session.get;

/** Who is signed in (undefined while unknown); asks the server after hydration. */
export function useSession(): SessionAnswer | undefined {
  const answer = session.use();
  useEffect(() => {
    void askSession();
  }, []);
  return answer;
}

/** Called by the pages when someone signs in or out. */
export const setSignedIn = (account: SessionAnswer['account']) => {
  asked = Promise.resolve();
  session.set({ account });
};

/** Ends the session on the server, here too. */
export async function signOut(): Promise<ApiResult<unknown>> {
  const result = await callApi(AUTH_API.logout, {});
  if (result.ok) setSignedIn(null);
  return result;
}
