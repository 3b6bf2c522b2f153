import type { Hono } from 'hono';
import { AUTH_API, CODE_MAX_ATTEMPTS, type LoginAnswer, type SessionAnswer } from '../../common/account-api.ts';
import { LoginSchema, NoFieldsSchema } from '../../common/account-schemas.ts';
import { fail } from '../api-error.ts';
import { issueCode } from '../auth/codes.ts';
import { checkLimits } from '../auth/limits.ts';
import type { AccountServices } from '../auth/services.ts';
import { endSession, readSession, startSession } from '../auth/session-cookie.ts';
import { findAccountByEmail, setPasswordHash } from '../db/accounts.ts';
import { hasLiveCode } from '../db/codes.ts';
import { jsonBody } from '../validation.ts';
import { requireVisitor } from '../visitor/require-visitor.ts';

/** Sign in, sign out, and who is signed in. */
export function sessionRoutes(app: Hono, services: AccountServices) {
  const { db, passwords } = services;

  app.post(AUTH_API.login, requireVisitor(services.secret), jsonBody(LoginSchema), async (c) => {
    const { email, password, language } = c.req.valid('json');
    const limited = await checkLimits(c, services, ['loginPerClient'], { subject: email, limits: ['loginPerAccount'] });
    if (limited) return limited;

    // An unknown address costs the same hashing as a wrong password, and gets the same answer.
    const account = await findAccountByEmail(db, email);
    const matches = await passwords.verify(account?.passwordHash ?? null, password);
    if (!account || !matches) return fail(c, 401, 'INVALID_CREDENTIALS');
    if (passwords.needsRehash(account.passwordHash)) {
      await setPasswordHash(db, account.id, await passwords.hash(password));
    }

    if (!account.verified) {
      // The code from registration may have lapsed: the validation page should find a fresh one waiting.
      if (!(await hasLiveCode(db, account.id, 'verify', CODE_MAX_ATTEMPTS))) {
        issueCode(services, 'verify', account, language).catch((error: Error) =>
          console.error('Verification mail could not be sent:', error.message),
        );
      }
      return c.json({ status: 'verification-required' } satisfies LoginAnswer);
    }
    await startSession(c, db, account.id);
    return c.json({ status: 'signed-in', account: { name: account.name } } satisfies LoginAnswer);
  });

  // Ends the session on the server, not only in this browser; needs no valid session to succeed.
  app.post(AUTH_API.logout, jsonBody(NoFieldsSchema), async (c) => {
    await endSession(c, db);
    return c.json({});
  });

  app.get(AUTH_API.session, async (c) => {
    const session = await readSession(c, db, services.sessionIdleSeconds);
    if (session.kind === 'lapsed') return c.json({ account: null, expired: true } satisfies SessionAnswer);
    return c.json({ account: session.kind === 'active' ? { name: session.name } : null } satisfies SessionAnswer);
  });
}
