import { ACCOUNT_API, type AccountAnswer } from '#common/account-api.ts';
import { DeleteAccountSchema } from '#common/account-schemas.ts';
import { NoFieldsSchema } from '#common/fields.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody } from '#server/http/json-body.ts';
import { dropQueuedMailFor } from '#server/platform/mail/mail-queue.ts';
import { deleteOutboxFor } from '#server/platform/mail/outbox.ts';
import type { AccountDeps } from './account-deps.ts';
import { deleteAccount, findAccountById } from './account-queries.ts';
import { hit } from './limits.ts';
import { deleteAccountSessions } from './session-queries.ts';
import { clearSessionCookie, requireSession } from './sessions.ts';

/** The signed-in visitor's own account: read it, sign out everywhere, delete it. */
export function accountRoutes(deps: AccountDeps) {
  const { db, limiter } = deps;
  const routes = newRoutes();
  const signedIn = requireSession(db, deps.settings.sessionIdleSeconds);

  routes.get(ACCOUNT_API.account, signedIn, async (c) => {
    const account = await findAccountById(db, c.get('session').accountId);
    if (!account) throw new ApiError(401, 'UNAUTHORIZED');
    return c.json({
      name: account.name,
      email: account.email,
      phone: account.phone,
      createdAt: account.createdAt.toISOString(),
    } satisfies AccountAnswer);
  });

  routes.post(ACCOUNT_API.signOutEverywhere, signedIn, jsonBody(NoFieldsSchema), async (c) => {
    await deleteAccountSessions(db, c.get('session').accountId);
    clearSessionCookie(c);
    return c.json({});
  });

  // Asks for the password again: a session left open on a shared computer must not be enough.
  routes.post(ACCOUNT_API.deleteAccount, signedIn, jsonBody(DeleteAccountSchema), async (c) => {
    const { accountId } = c.get('session');
    await deps.passwords.admit();
    await limiter.enforce([hit('deletePerAccount', accountId)]);
    const account = await findAccountById(db, accountId);
    if (!account) throw new ApiError(401, 'UNAUTHORIZED');
    if (!(await deps.passwords.verify(account.passwordHash, c.req.valid('json').password))) {
      throw new ApiError(403, 'AUTHENTICATION_FAILED', { fields: { password: 'AUTHENTICATION_FAILED' } });
    }
    // Codes and sessions go with the account; mail kept or queued for its address goes too.
    await db.transaction(async (tx) => {
      await deleteAccount(tx, accountId);
      await deleteOutboxFor(tx, account.email);
      await dropQueuedMailFor(tx, account.email);
    });
    clearSessionCookie(c);
    return c.json({});
  });

  return routes;
}
