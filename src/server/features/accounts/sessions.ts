import type { Context } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { storageEntry } from '#common/storage.ts';
import { ApiError } from '#server/http/api-error.ts';
import { lifetimeSeconds, setListedCookie } from '#server/http/cookies.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import { markActive } from './account-queries.ts';
import type { Factor } from './second-factor-queries.ts';
import { browserLabel } from './second-factors.ts';
import { createSession, deleteSession, findSession, touchSession } from './session-queries.ts';
import { hashSessionToken, newSessionToken } from './tokens.ts';

const SESSION_COOKIE = storageEntry('session');
const SIGNED_IN_COOKIE = storageEntry('signedIn');
/** The absolute end of every session: the cookie's lifetime, as the cookie policy states it. */
export const SESSION_LIFETIME_SECONDS = lifetimeSeconds(SESSION_COOKIE);
/**
 * Recording every use would write on every request: a use is recorded when the last one is more
 * than a minute old, or a tenth of the idle timeout when that is shorter.
 */
const TOUCH_AFTER_SECONDS = 60;

export type SessionState =
  | { kind: 'none' }
  | { kind: 'lapsed' }
  | { kind: 'active'; accountId: string; name: string; tokenHash: string; factors: Factor[] };

const readToken = (c: Context) => getCookie(c, SESSION_COOKIE.name);

export function clearSessionCookie(c: Context) {
  deleteCookie(c, SESSION_COOKIE.name, { path: '/', secure: true, httpOnly: true, sameSite: 'Lax' });
  deleteCookie(c, SIGNED_IN_COOKIE.name, { path: '/', secure: true, sameSite: 'Lax' });
}

/**
 * Opens a new session (a new token at every sign-in) and ends the one the browser brought, if any;
 * `factors` records what it was made with.
 */
export async function startSession(
  c: Context,
  db: Queryable,
  accountId: string,
  factors: readonly Factor[] = ['password'],
): Promise<void> {
  const previous = readToken(c);
  if (previous) await deleteSession(db, hashSessionToken(previous));
  const token = newSessionToken();
  // The account page lists sessions by browser and system; the User-Agent itself is not kept.
  const label = browserLabel(c.req.header('User-Agent') ?? '');
  await createSession(db, hashSessionToken(token), accountId, SESSION_LIFETIME_SECONDS, factors, label);
  await markActive(db, accountId);
  setListedCookie(c, SESSION_COOKIE, token, { httpOnly: true });
  setListedCookie(c, SIGNED_IN_COOKIE, '1', { httpOnly: false });
}

/** Ends the session the browser brought, on the server too; nothing to do when there is none. */
export async function endSession(c: Context, db: Queryable): Promise<void> {
  const token = readToken(c);
  if (token) await deleteSession(db, hashSessionToken(token));
  clearSessionCookie(c);
}

/**
 * The session the request's cookie names. A lapsed session is deleted when it is found, so it
 * reports SESSION_EXPIRED once; the cookie of a lapsed or unknown one is cleared.
 */
export async function readSession(c: Context, db: Queryable, idleTimeout: number): Promise<SessionState> {
  const token = readToken(c);
  if (!token) return { kind: 'none' };
  const tokenHash = hashSessionToken(token);
  const session = await findSession(db, tokenHash, idleTimeout);
  if (!session) {
    clearSessionCookie(c);
    return { kind: 'none' };
  }
  if (session.lapsed) {
    await deleteSession(db, tokenHash);
    clearSessionCookie(c);
    return { kind: 'lapsed' };
  }
  if (session.idleSeconds > Math.min(TOUCH_AFTER_SECONDS, idleTimeout / 10)) await touchSession(db, tokenHash);
  return { kind: 'active', accountId: session.accountId, name: session.name, tokenHash, factors: session.factors };
}

export type ActiveSession = Extract<SessionState, { kind: 'active' }>;

/** Lets only signed-in visitors through: UNAUTHORIZED without a session, SESSION_EXPIRED when it lapsed. */
export function requireSession(db: Queryable, idleTimeout: number) {
  return createMiddleware<{ Variables: { session: ActiveSession } }>(async (c, next) => {
    const session = await readSession(c, db, idleTimeout);
    if (session.kind === 'none') throw new ApiError(401, 'UNAUTHORIZED');
    if (session.kind === 'lapsed') throw new ApiError(401, 'SESSION_EXPIRED');
    c.set('session', session);
    await next();
  });
}
