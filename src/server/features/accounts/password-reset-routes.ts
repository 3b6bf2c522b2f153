import { ACCOUNT_API, type ResetAnswer } from '#common/account-api.ts';
import { MailRequestSchema, ResetPasswordSchema } from '#common/account-schemas.ts';
import { DEFAULT_LANGUAGE, isLanguage } from '#common/languages.ts';
import { pagePath } from '#common/routes.ts';
import { requireVisitor } from '#server/features/visitor/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody } from '#server/http/json-body.ts';
import { textAt } from '#server/platform/site-config.ts';
import type { AccountDeps } from './account-deps.ts';
import { findAccountByEmail, markVerified, setPasswordHash } from './account-queries.ts';
import { issueCode, redeemCode } from './codes.ts';
import { refuseCommonPassword } from './common-passwords.ts';
import { formAnswerPage } from './form-answer-page.ts';
import { hit, mailHits } from './limits.ts';
import { issuePass } from './passes.ts';
import { plainFormPost, withAddress } from './plain-form-post.ts';
import { deleteTrustedBrowsers } from './second-factor-queries.ts';
import { deleteAccountSessions } from './session-queries.ts';
import { clearSessionCookie } from './sessions.ts';

/** The sign-in page saying the new password is set, where a reset sent without JavaScript ends. */
export const RESET_DONE_PATH = '/api/auth/reset-password/done';

/** A forgotten password: a code by mail, then a new password, which ends every session. */
export function passwordResetRoutes(deps: AccountDeps) {
  const { db, secret, limiter } = deps;
  const routes = newRoutes();
  const visitor = requireVisitor(secret);

  // Without JavaScript the two steps are two pages: the address, then the code with the new password.
  const forgotForm = plainFormPost(deps, {
    page: 'forgotPassword',
    outcome: (_, language, sent) => ({ redirect: withAddress(pagePath(language, 'resetPassword'), sent.email ?? '') }),
  });
  const resetForm = plainFormPost(deps, {
    page: 'resetPassword',
    outcome: (_, language) => ({ redirect: `${RESET_DONE_PATH}?${new URLSearchParams({ language })}` }),
  });

  // The same answer whether or not an account has the address; the mail is queued, so the answer
  // takes as long either way.
  routes.post(ACCOUNT_API.forgotPassword, forgotForm, visitor, jsonBody(MailRequestSchema), async (c) => {
    const { email, language } = c.req.valid('json');
    await limiter.enforce(mailHits(c.var.clientAddress, email));
    const account = await findAccountByEmail(db, email);
    if (account) await db.transaction((tx) => issueCode(deps, tx, 'reset', account, language));
    return c.json({}, 202);
  });

  routes.post(ACCOUNT_API.resetPassword, resetForm, visitor, jsonBody(ResetPasswordSchema), async (c) => {
    await deps.passwords.admit();
    await limiter.enforce([hit('resetPerClient', c.var.clientAddress)]);
    const { email, code, password } = c.req.valid('json');
    await refuseCommonPassword(password);
    const account = await findAccountByEmail(db, email);
    // Hashing first keeps the slow part out of the transaction.
    const passwordHash = await deps.passwords.hash(password);
    const changed =
      account !== null &&
      (await db.transaction(async (tx) => {
        if (!(await redeemCode(tx, secret, 'reset', account.id, code))) return false;
        await setPasswordHash(tx, account.id, passwordHash);
        // The code came by mail, so the address is proven too.
        await markVerified(tx, account.id);
        await deleteAccountSessions(tx, account.id);
        // A reset never skips the second factor: no browser stays trusted, so the sign-in that
        // follows asks for it everywhere (recovery codes are the way back when it is lost).
        await deleteTrustedBrowsers(tx, account.id);
        return true;
      }));
    if (!changed) throw new ApiError(400, 'VERIFICATION_FAILED', { fields: { code: 'VERIFICATION_FAILED' } });
    clearSessionCookie(c);
    // The owner proved control of the mailbox: the sign-in lock others may have set off is lifted,
    // and this browser gets past it should they set it off again (docs/decisions/012).
    await limiter.clear('loginPerAccount', email);
    return c.json({ signInPass: issuePass(secret, 'signIn', email) } satisfies ResetAnswer);
  });

  // The sign-in page with its notice, in the language asked for; a page, so it may be reloaded.
  routes.get(RESET_DONE_PATH, (c) => {
    const asked = c.req.query('language');
    const language = isLanguage(asked) ? asked : DEFAULT_LANGUAGE;
    const text = textAt(deps.texts, language, 'login', 'forgot.done');
    const message = { kind: 'notice', text } as const;
    const { html, policy } = formAnswerPage(deps.pages, deps.site, deps.texts, {
      page: 'login',
      language,
      values: {},
      message,
    });
    return c.html(html, 200, { 'Content-Security-Policy': policy });
  });

  return routes;
}
