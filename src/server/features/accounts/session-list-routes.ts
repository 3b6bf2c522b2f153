import {
  ACCOUNT_SETTINGS_API,
  type EndedSessionsAnswer,
  type SessionListAnswer,
} from '#common/account-settings-api.ts';
import { EndSessionSchema } from '#common/account-settings-schemas.ts';
import { NoFieldsSchema } from '#common/fields.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody } from '#server/http/json-body.ts';
import type { AccountDeps } from './account-deps.ts';
import { deleteSessionById, listSessions } from './session-list-queries.ts';
import { deleteOtherSessions } from './session-queries.ts';
import { clearSessionCookie, requireSession } from './sessions.ts';

/** Where the account is signed in: the list, ending one session, ending every other. */
export function sessionListRoutes(deps: AccountDeps) {
  const { db } = deps;
  const idleSeconds = deps.settings.sessionIdleSeconds;
  const routes = newRoutes();
  const signedIn = requireSession(db, idleSeconds);

  routes.get(ACCOUNT_SETTINGS_API.sessions, signedIn, async (c) => {
    const { accountId, tokenHash } = c.get('session');
    const sessions = await listSessions(db, accountId, tokenHash, idleSeconds);
    return c.json({
      sessions: sessions.map((session) => ({
        id: session.id,
        label: session.label,
        factors: session.factors,
        createdAt: session.createdAt.toISOString(),
        lastSeenAt: session.lastSeenAt.toISOString(),
        current: session.current,
      })),
    } satisfies SessionListAnswer);
  });

  // Ending the browser's own session is signing out: its cookie goes too.
  routes.post(ACCOUNT_SETTINGS_API.endSession, signedIn, jsonBody(EndSessionSchema), async (c) => {
    const { accountId, tokenHash } = c.get('session');
    const ended = await deleteSessionById(db, accountId, c.req.valid('json').id);
    if (!ended) throw new ApiError(404, 'NOT_FOUND');
    if (ended === tokenHash) clearSessionCookie(c);
    return c.json({});
  });

  routes.post(ACCOUNT_SETTINGS_API.endOtherSessions, signedIn, jsonBody(NoFieldsSchema), async (c) => {
    const { accountId, tokenHash } = c.get('session');
    return c.json({ ended: await deleteOtherSessions(db, accountId, tokenHash) } satisfies EndedSessionsAnswer);
  });

  return routes;
}
