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
import { confirmOwner } from './confirm-owner.ts';
import { hit } from './limits.ts';
import { deleteAccountSessions } from './session-queries.ts';
import { clearSessionCookie, requireSession } from './sessions.ts';

/** The signed-in visitor's own account: read it, sign out everywhere, delete it. */
export function accountRoutes(deps: AccountDeps) {
  const { db } = deps;
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

  // Asks for the password again (or a fresh sign-in at a provider, without one): a session left open
  // on a shared computer must not be enough.
  routes.post(ACCOUNT_API.deleteAccount, signedIn, jsonBody(DeleteAccountSchema), async (c) => {
    const session = c.get('session');
    const { accountId } = session;
    const { account, spend } = await confirmOwner(deps, session, c.req.valid('json').password, [
      hit('deletePerAccount', accountId),
    ]);
    // Codes and sessions go with the account; mail kept or queued for its address goes too.
    await db.transaction(async (tx) => {
      await spend(tx);
      await deleteAccount(tx, accountId);
      await deleteOutboxFor(tx, account.email);
      await dropQueuedMailFor(tx, account.email);
    });
    clearSessionCookie(c);
    return c.json({});
  });

  return routes;
}
