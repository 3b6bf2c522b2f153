import { ACCOUNT_SETTINGS_API, type EndedSessionsAnswer } from '#common/account-settings-api.ts';
import { ChangePasswordSchema } from '#common/account-settings-schemas.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody } from '#server/http/json-body.ts';
import { queueMail } from '#server/platform/mail/mail-queue.ts';
import { passwordChangedMail } from './account-change-mail.ts';
import type { AccountDeps } from './account-deps.ts';
import { setPasswordHash } from './account-queries.ts';
import { refuseCommonPassword } from './common-passwords.ts';
import { confirmOwner } from './confirm-owner.ts';
import { deleteOtherSessions } from './session-queries.ts';
import { requireSession } from './sessions.ts';
import { settingsHit } from './settings-limits.ts';

/**
 * A new password from the account page, given the current one (ASVS 6.2.2, 6.2.3), or a first one
 * for an account made by a provider, confirmed there (docs/decisions/220): every other
 * session ends, since one of them may be whoever made the change necessary, and the owner is told
 * by mail in the account's language.
 */
export function passwordChangeRoutes(deps: AccountDeps) {
  const { db, passwords } = deps;
  const routes = newRoutes();

  routes.post(
    ACCOUNT_SETTINGS_API.changePassword,
    requireSession(db, deps.settings.sessionIdleSeconds),
    jsonBody(ChangePasswordSchema),
    async (c) => {
      const session = c.get('session');
      const { currentPassword, newPassword } = c.req.valid('json');
      const hits = [settingsHit('passwordChangePerAccount', session.accountId)];
      const { account, spend } = await confirmOwner(deps, session, currentPassword, hits, 'currentPassword');
      // A password is changed with the current one; only a first one is set with a confirmation at the provider.
      if (currentPassword === undefined && account.passwordHash !== null) {
        throw new ApiError(400, 'VALIDATION_ERROR', { fields: { currentPassword: 'INVALID_PASSWORD' } });
      }
      await refuseCommonPassword(newPassword, 'newPassword');
      const passwordHash = await passwords.hash(newPassword, 'account');
      const ended = await db.transaction(async (tx) => {
        await spend(tx);
        await setPasswordHash(tx, account.id, passwordHash);
        const count = await deleteOtherSessions(tx, account.id, session.tokenHash);
        await queueMail(tx, passwordChangedMail(deps.site, deps.texts, account));
        return count;
      });
      return c.json({ ended } satisfies EndedSessionsAnswer);
    },
  );

  return routes;
}
