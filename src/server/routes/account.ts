import type { Hono } from 'hono';
import { type AccountAnswer, AUTH_API } from '../../common/account-api.ts';
import { DeleteAccountSchema, NoFieldsSchema } from '../../common/account-schemas.ts';
import { fail } from '../api-error.ts';
import { checkLimits } from '../auth/limits.ts';
import type { AccountServices } from '../auth/services.ts';
import { clearSessionCookie, requireSession } from '../auth/session-cookie.ts';
import { deleteAccount, findAccountById } from '../db/accounts.ts';
import { deleteOutboxFor } from '../db/outbox.ts';
import { deleteAccountSessions } from '../db/sessions.ts';
import { jsonBody } from '../validation.ts';

/** The signed-in visitor's own account: read it, sign out everywhere, delete it. */
export function accountRoutes(app: Hono, services: AccountServices) {
  const { db } = services;
  const signedIn = requireSession(db, services.sessionIdleSeconds);

  app.get(AUTH_API.account, signedIn, async (c) => {
    const account = await findAccountById(db, c.get('session').accountId);
    if (!account) return fail(c, 401, 'UNAUTHORIZED');
    return c.json({
      name: account.name,
      email: account.email,
      phone: account.phone,
      createdAt: account.createdAt.toISOString(),
    } satisfies AccountAnswer);
  });

  app.post(AUTH_API.signOutEverywhere, signedIn, jsonBody(NoFieldsSchema), async (c) => {
    await deleteAccountSessions(db, c.get('session').accountId);
    clearSessionCookie(c);
    return c.json({});
  });

  // Asks for the password again: a session left open on a shared computer must not be enough.
  app.post(AUTH_API.deleteAccount, signedIn, jsonBody(DeleteAccountSchema), async (c) => {
    const { accountId } = c.get('session');
    const limited = await checkLimits(c, services, [], { subject: accountId, limits: ['deletePerAccount'] });
    if (limited) return limited;
    const account = await findAccountById(db, accountId);
    if (!account) return fail(c, 401, 'UNAUTHORIZED');
    if (!(await services.passwords.verify(account.passwordHash, c.req.valid('json').password))) {
      return fail(c, 403, 'AUTHENTICATION_FAILED', { password: 'AUTHENTICATION_FAILED' });
    }
    // Codes and sessions go with the account; mail kept for its address goes too.
    await db.transaction(async (tx) => {
      await deleteAccount(tx, accountId);
      await deleteOutboxFor(tx, account.email);
    });
    clearSessionCookie(c);
    return c.json({});
  });
}
