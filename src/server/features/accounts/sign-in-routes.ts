import { getCookie } from 'hono/cookie';
import { ACCOUNT_API, CODE_MAX_ATTEMPTS, type LoginAnswer, type SessionAnswer } from '#common/account-api.ts';
import { LoginSchema } from '#common/account-schemas.ts';
import { NoFieldsSchema } from '#common/fields.ts';
import { storageEntry } from '#common/storage.ts';
import { requireVisitor } from '#server/features/visitor/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { setListedCookie } from '#server/http/cookies.ts';
import { jsonBody } from '#server/http/json-body.ts';
import type { AccountDeps } from './account-deps.ts';
import { findAccountByEmail, setPasswordHash } from './account-queries.ts';
import { hasLiveCode } from './code-queries.ts';
import { issueCode } from './codes.ts';
import { hit, mailHits } from './limits.ts';
import { isPassFor, issuePass } from './passes.ts';
import { endSession, readSession, startSession } from './sessions.ts';

const KNOWN_DEVICE = storageEntry('knownDevice');

/** Sign in, sign out, and who is signed in. */
export function signInRoutes(deps: AccountDeps) {
  const { db, passwords, limiter } = deps;
  const routes = newRoutes();

  routes.post(ACCOUNT_API.login, requireVisitor(deps.secret), jsonBody(LoginSchema), async (c) => {
    const { email, password, language, signInPass } = c.req.valid('json');
    // A browser that signed in to this account before goes first while a flood fills the queue.
    const lane = isPassFor(deps.secret, 'knownDevice', getCookie(c, KNOWN_DEVICE.name), email) ? 'known' : 'other';
    await passwords.admit(lane);
    // Whoever just reset the password gets past the account's lock, which anyone can set off by
    // trying wrong passwords; the pass has a limit of its own (docs/decisions/012).
    const perAccount = isPassFor(deps.secret, 'signIn', signInPass, email)
      ? hit('loginPerPass', signInPass as string)
      : hit('loginPerAccount', email);
    await limiter.enforce([hit('loginPerClient', c.var.clientAddress), perAccount]);

    // An unknown address costs the same hashing as a wrong password, and gets the same answer.
    const account = await findAccountByEmail(db, email);
    const matches = await passwords.verify(account?.passwordHash ?? null, password, lane);
    if (!account || !matches) throw new ApiError(401, 'INVALID_CREDENTIALS');
    if (passwords.needsRehash(account.passwordHash)) {
      await setPasswordHash(db, account.id, await passwords.hash(password));
    }

    if (!account.verified) {
      // The code from registration may have lapsed: the validation page should find a fresh one
      // waiting, within the same mail limits as asking for one.
      if (!(await hasLiveCode(db, account.id, 'verify', CODE_MAX_ATTEMPTS))) {
        const mayMail = await limiter.enforce(mailHits(c.var.clientAddress, email)).then(
          () => true,
          (error: unknown) => {
            if (error instanceof ApiError) return false;
            throw error;
          },
        );
        if (mayMail) await db.transaction((tx) => issueCode(deps, tx, 'verify', account, language));
      }
      return c.json({ status: 'verification-required' } satisfies LoginAnswer);
    }
    await startSession(c, db, account.id);
    setListedCookie(c, KNOWN_DEVICE, issuePass(deps.secret, 'knownDevice', email), { httpOnly: true });
    return c.json({ status: 'signed-in', account: { name: account.name } } satisfies LoginAnswer);
  });

  // Ends the session on the server, not only in this browser; needs no valid session to succeed.
  routes.post(ACCOUNT_API.logout, jsonBody(NoFieldsSchema), async (c) => {
    await endSession(c, db);
    return c.json({});
  });

  routes.get(ACCOUNT_API.session, async (c) => {
    const session = await readSession(c, db, deps.settings.sessionIdleSeconds);
    if (session.kind === 'lapsed') return c.json({ account: null, expired: true } satisfies SessionAnswer);
    return c.json({ account: session.kind === 'active' ? { name: session.name } : null } satisfies SessionAnswer);
  });

  return routes;
}
