import { CODE_LIFETIME_MINUTES, CODE_MAX_ATTEMPTS } from '#common/account-api.ts';
import {
  ACCOUNT_SETTINGS_API,
  EMAIL_UNDO_DAYS,
  type EmailChangeConfirmAnswer,
  type EmailChangeStartAnswer,
} from '#common/account-settings-api.ts';
import {
  EmailChangeConfirmSchema,
  EmailChangeStartSchema,
  EmailChangeUndoSchema,
} from '#common/account-settings-schemas.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody } from '#server/http/json-body.ts';
import { queueMail } from '#server/platform/mail/mail-queue.ts';
import { keyedHash } from '#server/platform/secrets.ts';
import { emailChangedMail, emailCodeMail } from './account-change-mail.ts';
import type { AccountDeps } from './account-deps.ts';
import { findAccountByEmail, findAccountById } from './account-queries.ts';
import { confirmOwner } from './confirm-owner.ts';
import {
  redeemEmailChange,
  setEmail,
  storeEmailChange,
  storeEmailUndo,
  takeEmailUndo,
} from './email-change-queries.ts';
import { mailHits } from './limits.ts';
import { deleteAccountSessions } from './session-queries.ts';
import { clearSessionCookie, requireSession } from './sessions.ts';
import { settingsHit } from './settings-limits.ts';
import { hashSessionToken, newCode, newSessionToken } from './tokens.ts';

const DAY_SECONDS = 24 * 60 * 60;
const taken = () => new ApiError(409, 'EMAIL_ALREADY_EXISTS', { fields: { email: 'EMAIL_ALREADY_EXISTS' } });

/**
 * A new email address: the password (or, without one, a fresh sign-in at a provider) and the new
 * address, then the code mailed to that address. The
 * account keeps its old address until the code comes back; then the old address is told, with a
 * link that puts it back for a week (and signs out everywhere), for the case that it was not the owner.
 */
export function emailChangeRoutes(deps: AccountDeps) {
  const { db, limiter, secret } = deps;
  const routes = newRoutes();
  const signedIn = requireSession(db, deps.settings.sessionIdleSeconds);
  // Bound to the address: a code mailed to one address cannot confirm another.
  const codeHash = (accountId: string, newEmail: string, code: string) =>
    keyedHash(secret, 'email-change', accountId, newEmail, code);

  routes.post(ACCOUNT_SETTINGS_API.emailChangeStart, signedIn, jsonBody(EmailChangeStartSchema), async (c) => {
    const session = c.get('session');
    const { accountId } = session;
    const { email, password } = c.req.valid('json');
    // The limits of any mailed code, and password tries per account, come before any answer about the address.
    const { account, spend } = await confirmOwner(deps, session, password, [
      ...mailHits(c.var.clientAddress, email),
      settingsHit('emailChangePerAccount', accountId),
    ]);
    if (email === account.email) throw new ApiError(400, 'EMAIL_UNCHANGED', { fields: { email: 'EMAIL_UNCHANGED' } });
    // As registration answers: the owner of a session and its password learns that an address is taken.
    if (await findAccountByEmail(db, email)) throw taken();
    const code = newCode();
    await db.transaction(async (tx) => {
      await spend(tx);
      await storeEmailChange(tx, {
        accountId,
        newEmail: email,
        codeHash: codeHash(accountId, email, code),
        seconds: CODE_LIFETIME_MINUTES * 60,
      });
      await queueMail(tx, emailCodeMail(deps.site, deps.texts, account, email, code, CODE_LIFETIME_MINUTES));
    });
    return c.json({ email } satisfies EmailChangeStartAnswer, 202);
  });

  routes.post(ACCOUNT_SETTINGS_API.emailChangeConfirm, signedIn, jsonBody(EmailChangeConfirmSchema), async (c) => {
    const { accountId } = c.get('session');
    await limiter.enforce([settingsHit('emailConfirmPerAccount', accountId)]);
    const account = await findAccountById(db, accountId);
    if (!account) throw new ApiError(401, 'UNAUTHORIZED');
    const { code } = c.req.valid('json');
    const undoToken = newSessionToken();
    const newEmail = await db.transaction(async (tx) => {
      const confirmed = await redeemEmailChange(
        tx,
        accountId,
        (pending) => codeHash(accountId, pending, code),
        CODE_MAX_ATTEMPTS,
      );
      if (!confirmed) return null;
      // Someone may have registered the address since the code was sent.
      if (!(await setEmail(tx, accountId, confirmed))) throw taken();
      await storeEmailUndo(tx, {
        tokenHash: hashSessionToken(undoToken),
        accountId,
        oldEmail: account.email,
        newEmail: confirmed,
        seconds: EMAIL_UNDO_DAYS * DAY_SECONDS,
      });
      await queueMail(
        tx,
        emailChangedMail(deps.site, deps.texts, { ...account, newEmail: confirmed }, undoToken, EMAIL_UNDO_DAYS),
      );
      return confirmed;
    });
    if (!newEmail) throw new ApiError(400, 'VERIFICATION_FAILED', { fields: { code: 'VERIFICATION_FAILED' } });
    return c.json({ email: newEmail } satisfies EmailChangeConfirmAnswer);
  });

  // The link's token is the proof; whoever changed the address may hold a session, so every one ends.
  routes.post(ACCOUNT_SETTINGS_API.emailChangeUndo, jsonBody(EmailChangeUndoSchema), async (c) => {
    await limiter.enforce([settingsHit('emailUndoPerClient', c.var.clientAddress)]);
    const tokenHash = hashSessionToken(c.req.valid('json').token);
    await db.transaction(async (tx) => {
      const undo = await takeEmailUndo(tx, tokenHash);
      if (!undo) throw new ApiError(400, 'LINK_EXPIRED');
      // The old address may have been registered by someone else meanwhile: it cannot be taken back then.
      if (!(await setEmail(tx, undo.accountId, undo.oldEmail))) throw taken();
      await deleteAccountSessions(tx, undo.accountId);
    });
    clearSessionCookie(c);
    return c.json({});
  });

  return routes;
}
