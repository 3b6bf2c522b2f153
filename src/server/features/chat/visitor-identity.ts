import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import type { VisitorConversation } from '#common/chat-api.ts';
import { storageEntry } from '#common/storage.ts';
import type { Deps } from '#server/deps.ts';
import { readSession } from '#server/features/accounts/index.ts';
import { setListedCookie } from '#server/http/cookies.ts';
import { keyedHash } from '#server/platform/secrets.ts';
import { type ConversationRow, findByAccount, findByToken } from './chat-queries.ts';

const TOKEN_COOKIE = storageEntry('chat');
const ACTIVE_COOKIE = storageEntry('chatActive');
const SESSION_COOKIE = storageEntry('session').name;

/** A conversation token: 256 random bits, only ever in the visitor's cookie. */
export const newChatToken = () => randomBytes(32).toString('base64url');
/** What the database keeps of it; random enough that a plain hash cannot be reversed. */
export const hashChatToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A keyed hash of the client address, kept with a conversation so that a block covers the next one. */
export const clientHashOf = (deps: Deps, address: string) => keyedHash(deps.secret, 'chat-client', address);

/** Sets (or renews, on every message) the token, and the marker the pages can read. */
export function setChatCookies(c: Context, token?: string) {
  if (token) setListedCookie(c, TOKEN_COOKIE, token, { httpOnly: true });
  setListedCookie(c, ACTIVE_COOKIE, '1', { httpOnly: false });
}

export function clearChatCookies(c: Context) {
  deleteCookie(c, TOKEN_COOKIE.name, { path: '/', secure: true, httpOnly: true, sameSite: 'Lax' });
  deleteCookie(c, ACTIVE_COOKIE.name, { path: '/', secure: true, sameSite: 'Lax' });
}

export interface Visitor {
  conversation: ConversationRow | null;
  /** The signed-in visitor's account, if any. */
  accountId: string | null;
  /** Their session's token hash, with which an open stream asks whether the session still holds. */
  sessionHash: string | null;
  /** The token this browser brought, when it names the conversation. */
  token: string | null;
}

/**
 * Whose conversation this request may see. The cookie's token names one; a conversation tied to an
 * account needs that account's session too, so that after signing out on a shared computer the
 * next person does not read it. A signed-in visitor without the cookie (another browser of
 * theirs) gets their account's conversation. An unknown or ended token's cookies are cleared.
 */
export async function identifyVisitor(c: Context, deps: Deps): Promise<Visitor> {
  const session = getCookie(c, SESSION_COOKIE)
    ? await readSession(c, deps.db, deps.settings.sessionIdleSeconds)
    : { kind: 'none' as const };
  const accountId = session.kind === 'active' ? session.accountId : null;
  const sessionHash = session.kind === 'active' ? session.tokenHash : null;
  const token = getCookie(c, TOKEN_COOKIE.name) ?? null;
  if (token) {
    const conversation = await findByToken(deps.db, hashChatToken(token));
    if (conversation && (conversation.accountId === null || conversation.accountId === accountId)) {
      return { conversation, accountId, sessionHash, token };
    }
    if (!conversation) clearChatCookies(c);
  }
  const conversation = accountId ? await findByAccount(deps.db, accountId) : null;
  return { conversation, accountId, sessionHash, token: null };
}

/** The conversation as its visitor sees it. */
export const visitorView = (row: ConversationRow, operatorsOnline: boolean): VisitorConversation => ({
  status: row.status,
  ended: row.visitorEnded,
  blocked: row.blocked,
  operatorsOnline,
  email: row.visitorEmail ?? row.accountEmail,
  accountBound: row.accountId !== null,
  operatorReadId: Number(row.operatorReadId),
  visitorReadId: Number(row.visitorReadId),
});
