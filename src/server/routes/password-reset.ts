import type { Hono } from 'hono';
import { AUTH_API } from '../../common/account-api.ts';
import { MailRequestSchema, ResetPasswordSchema } from '../../common/account-schemas.ts';
import { fail } from '../api-error.ts';
import { issueCode, redeemCode } from '../auth/codes.ts';
import { checkLimits, checkMailLimits } from '../auth/limits.ts';
import type { AccountServices } from '../auth/services.ts';
import { clearSessionCookie } from '../auth/session-cookie.ts';
import { findAccountByEmail, markVerified, setPasswordHash } from '../db/accounts.ts';
import { deleteAccountSessions } from '../db/sessions.ts';
import { jsonBody } from '../validation.ts';
import { requireVisitor } from '../visitor/require-visitor.ts';

/** A forgotten password: a code by mail, then a new password, which ends every session. */
export function passwordResetRoutes(app: Hono, services: AccountServices) {
  const { db, secret } = services;
  const visitor = requireVisitor(secret);

  // The same answer, at once, whether or not an account has the address: the mail goes out after it.
  app.post(AUTH_API.forgotPassword, visitor, jsonBody(MailRequestSchema), async (c) => {
    const { email, language } = c.req.valid('json');
    const limited = await checkMailLimits(c, services, email);
    if (limited) return limited;
    const account = await findAccountByEmail(db, email);
    if (account) {
      issueCode(services, 'reset', account, language).catch((error: Error) =>
        console.error('Password reset mail could not be sent:', error.message),
      );
    }
    return c.json({}, 202);
  });

  app.post(AUTH_API.resetPassword, visitor, jsonBody(ResetPasswordSchema), async (c) => {
    const limited = await checkLimits(c, services, ['resetPerClient']);
    if (limited) return limited;
    const { email, code, password } = c.req.valid('json');
    const account = await findAccountByEmail(db, email);
    // Hashing first keeps the slow part out of the transaction.
    const passwordHash = await services.passwords.hash(password);
    const changed =
      account !== null &&
      (await db.transaction(async (tx) => {
        if (!(await redeemCode(tx, secret, 'reset', account.id, code))) return false;
        await setPasswordHash(tx, account.id, passwordHash);
        // The code came by mail, so the address is proven too.
        await markVerified(tx, account.id);
        await deleteAccountSessions(tx, account.id);
        return true;
      }));
    if (!changed) return fail(c, 400, 'VERIFICATION_FAILED', { code: 'VERIFICATION_FAILED' });
    clearSessionCookie(c);
    return c.json({});
  });
}
