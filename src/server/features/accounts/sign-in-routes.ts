import { getCookie } from 'hono/cookie';
import { ACCOUNT_API, CODE_MAX_ATTEMPTS, type LoginAnswer, type SessionAnswer } from '#common/account-api.ts';
import { LoginSchema, SecondFactorSchema } from '#common/account-schemas.ts';
import { NoFieldsSchema } from '#common/fields.ts';
import { RETENTION } from '#common/retention.ts';
import { isStaffRole } from '#common/roles.ts';
import { pagePath } from '#common/routes.ts';
import { storageEntry } from '#common/storage.ts';
import { requireVisitor } from '#server/features/visitor/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { setListedCookie } from '#server/http/cookies.ts';
import { jsonBody } from '#server/http/json-body.ts';
import { aheadInLine } from '#server/platform/db/database.ts';
import type { AccountDeps } from './account-deps.ts';
import { findAccountByEmail, findAccountById, setPasswordHash } from './account-queries.ts';
import { hasLiveCode } from './code-queries.ts';
import { issueCode } from './codes.ts';
import { pendingFirstFactor } from './identity-queries.ts';
import { hit, mailHits } from './limits.ts';
import { isPassFor, issuePass } from './passes.ts';
import { countPasskeys } from './passkey-queries.ts';
import { plainFormPost, withAddress } from './plain-form-post.ts';
import { roleOf } from './roles.ts';
import {
  createPendingSignIn,
  deletePendingSignIn,
  hasSecondFactor,
  hasTotp,
  recoveryCodesLeft,
  tryPendingSignIn,
} from './second-factor-queries.ts';
import { browserIsTrusted, proveSecondFactor, tellOwner, trustBrowser } from './second-factors.ts';
import { endSession, readSession, startSession } from './sessions.ts';
import { hashSessionToken, newSessionToken } from './tokens.ts';

const KNOWN_DEVICE = storageEntry('knownDevice');
/** Tries at a pending sign-in's second step; then the password is asked again (and counted again). */
const PENDING_MAX_ATTEMPTS = 5;

/** Sign in, sign out, and who is signed in. */
export function signInRoutes(deps: AccountDeps) {
  const { db, passwords, limiter } = deps;
  const routes = newRoutes();

  // Without JavaScript: where the app goes, except that the second step needs the app
  // (docs/decisions/125): the page says so.
  const loginForm = plainFormPost<LoginAnswer>(deps, {
    page: 'login',
    outcome: (answer, language, sent) => {
      if (answer.status === 'signed-in') return { redirect: pagePath(language, 'account') };
      if (answer.status === 'verification-required') {
        return { redirect: withAddress(pagePath(language, 'validation'), sent.email ?? '') };
      }
      return { status: 403, message: { kind: 'error', details: { code: 'SECOND_STEP_NEEDS_SCRIPT' } } };
    },
  });

  routes.post(ACCOUNT_API.login, loginForm, requireVisitor(deps.secret), jsonBody(LoginSchema), async (c) => {
    const { email, password, language, signInPass } = c.req.valid('json');
    // While a flood fills the queue, a browser that signed in to this account before goes first,
    // then any browser signing in to an account that exists (docs/decisions/255): for the hashing,
    // and for the database's connections from the moment it is known (docs/decisions/258).
    const known = isPassFor(deps.secret, 'knownDevice', getCookie(c, KNOWN_DEVICE.name), email);
    const account = await aheadInLine(known, () => findAccountByEmail(db, email));
    const lane = known ? 'known' : account ? 'account' : 'other';
    return aheadInLine(lane !== 'other', async () => {
      await passwords.admit(lane);
      // Whoever just reset the password gets past the account's lock, which anyone can set off by
      // trying wrong passwords; the pass has a limit of its own (docs/decisions/012).
      const perAccount = isPassFor(deps.secret, 'signIn', signInPass, email)
        ? hit('loginPerPass', signInPass as string)
        : hit('loginPerAccount', email);
      await limiter.enforce([hit('loginPerClient', c.var.clientAddress), perAccount]);

      // An unknown address costs the same hashing as a wrong password, and gets the same answer.
      const matches = await passwords.verify(account?.passwordHash ?? null, password, lane);
      if (!account || !matches) throw new ApiError(401, 'INVALID_CREDENTIALS');
      if (account.passwordHash && passwords.needsRehash(account.passwordHash)) {
        await setPasswordHash(db, account.id, await passwords.hash(password, lane));
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
      // With a second factor the password alone opens nothing: the browser that gave it gets a
      // token, held by its page only, for a step of its own (unless the owner trusted this browser).
      const secondFactor = await hasSecondFactor(db, account.id);
      if (secondFactor && !(await browserIsTrusted(c, db, account.id))) {
        const pending = newSessionToken();
        await createPendingSignIn(db, hashSessionToken(pending), account.id, RETENTION.pendingSignInMinutes * 60);
        const passkey = (await countPasskeys(db, account.id)) > 0;
        const totp = await hasTotp(db, account.id);
        return c.json({ status: 'second-factor-required', pending, passkey, totp } satisfies LoginAnswer);
      }
      await startSession(c, db, account.id, secondFactor ? ['password', 'trusted-browser'] : ['password']);
      setListedCookie(c, KNOWN_DEVICE, issuePass(deps.secret, 'knownDevice', email), { httpOnly: true });
      return c.json({ status: 'signed-in', account: { name: account.name } } satisfies LoginAnswer);
    });
  });

  // The second step: a code from the authenticator app or a recovery code, for a pending sign-in.
  // Guesses are limited like passwords: per client, per account, and per pending sign-in.
  routes.post(ACCOUNT_API.loginSecondFactor, requireVisitor(deps.secret), jsonBody(SecondFactorSchema), async (c) => {
    const { pending, code, trustBrowser: trust } = c.req.valid('json');
    await limiter.enforce([hit('secondFactorPerClient', c.var.clientAddress)]);
    const pendingHash = hashSessionToken(pending);
    const accountId = await tryPendingSignIn(db, pendingHash, PENDING_MAX_ATTEMPTS);
    if (!accountId) throw new ApiError(401, 'SIGN_IN_EXPIRED');
    await limiter.enforce([hit('secondFactorPerAccount', accountId)]);
    const account = await findAccountById(db, accountId);
    if (!account) throw new ApiError(401, 'SIGN_IN_EXPIRED');
    const firstFactor = await pendingFirstFactor(db, pendingHash);
    const factor = await db.transaction(async (tx) => {
      const proved = await proveSecondFactor(deps.secret, tx, accountId, code);
      if (!proved) return null;
      // Two requests with two good codes for one pending sign-in: one session, not two.
      if (!(await deletePendingSignIn(tx, pendingHash))) throw new ApiError(401, 'SIGN_IN_EXPIRED');
      if (proved === 'recovery-code') {
        await tellOwner(deps, tx, account, 'recoveryCodeUsed', { left: await recoveryCodesLeft(tx, accountId) });
      }
      return proved;
    });
    if (!factor) throw new ApiError(401, 'INVALID_CODE', { fields: { code: 'INVALID_CODE' } });
    await startSession(c, db, accountId, [firstFactor, factor]);
    if (trust) await trustBrowser(c, db, accountId);
    setListedCookie(c, KNOWN_DEVICE, issuePass(deps.secret, 'knownDevice', account.email), { httpOnly: true });
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
    if (session.kind !== 'active') return c.json({ account: null } satisfies SessionAnswer);
    const staff = isStaffRole(await roleOf(db, session.accountId));
    return c.json({ account: { name: session.name, ...(staff ? { staff: true } : {}) } } satisfies SessionAnswer);
  });

  return routes;
}
