import { createMiddleware } from 'hono/factory';
import type { Deps } from '#server/deps.ts';
import { readSession } from '#server/features/accounts/index.ts';
import { ApiError } from '#server/http/api-error.ts';

/** The staff roles that answer chats. */
export const OPERATOR_ROLES = ['operator', 'admin'] as const;

export interface Operator {
  accountId: string;
  name: string;
}

export interface OperatorEnv {
  Variables: { operator: Operator };
}

/**
 * Lets only operators and admins through: UNAUTHORIZED without a session (SESSION_EXPIRED when it
 * lapsed), and UNAUTHORIZED (403) for a signed-in member. The role is read on every request, so
 * taking it away takes effect at once.
 *
 * The console's own guard (staff roles, issue 10) is meant to replace this: the chat's console
 * routes then use it, and this file goes.
 */
export function requireOperator(deps: Deps) {
  return createMiddleware<OperatorEnv>(async (c, next) => {
    const session = await readSession(c, deps.db, deps.settings.sessionIdleSeconds);
    if (session.kind === 'none') throw new ApiError(401, 'UNAUTHORIZED');
    if (session.kind === 'lapsed') throw new ApiError(401, 'SESSION_EXPIRED');
    const [account] = await deps.db.query<{ role: string }>('SELECT role FROM accounts WHERE id = $1', [
      session.accountId,
    ]);
    if (!account || !(OPERATOR_ROLES as readonly string[]).includes(account.role)) {
      throw new ApiError(403, 'UNAUTHORIZED');
    }
    c.set('operator', { accountId: session.accountId, name: session.name });
    await next();
  });
}
