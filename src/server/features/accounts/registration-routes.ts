import { ACCOUNT_API, type RegisterAnswer, type VerifyAnswer } from '#common/account-api.ts';
import { MailRequestSchema, VerifySchema } from '#common/account-schemas.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { RegisterSchema } from '#common/register-schema.ts';
import { pagePath } from '#common/routes.ts';
import { requireVisitor } from '#server/features/visitor/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody } from '#server/http/json-body.ts';
import type { AccountDeps } from './account-deps.ts';
import { findAccountByEmail, insertAccount, markVerified, takenContacts } from './account-queries.ts';
import { issueCode, redeemCode } from './codes.ts';
import { refuseCommonPassword } from './common-passwords.ts';
import { hit, mailHits } from './limits.ts';
import { plainFormPost, withAddress } from './plain-form-post.ts';
import { startSession } from './sessions.ts';

/** EMAIL_ALREADY_EXISTS or PHONE_ALREADY_EXISTS (409), naming each field that is taken. */
function takenError(taken: { email: boolean; phone: boolean }) {
  const fields: Record<string, ErrorCode> = {};
  if (taken.email) fields.email = 'EMAIL_ALREADY_EXISTS';
  if (taken.phone) fields.phone = 'PHONE_ALREADY_EXISTS';
  return new ApiError(409, taken.email ? 'EMAIL_ALREADY_EXISTS' : 'PHONE_ALREADY_EXISTS', { fields });
}

/** Register, confirm the email address with the mailed code, and ask for a new code. */
export function registrationRoutes(deps: AccountDeps) {
  const { db, secret, limiter } = deps;
  const routes = newRoutes();
  const visitor = requireVisitor(secret);

  // Without JavaScript: on to the code's page, as the app goes.
  const registerForm = plainFormPost<RegisterAnswer>(deps, {
    page: 'register',
    checkboxes: ['acceptTerms'],
    outcome: (answer, language) => ({ redirect: withAddress(pagePath(language, 'validation'), answer.email) }),
  });
  const verifyForm = plainFormPost<VerifyAnswer>(deps, {
    page: 'validation',
    outcome: (_, language) => ({ redirect: pagePath(language, 'account') }),
  });

  routes.post(ACCOUNT_API.register, registerForm, visitor, jsonBody(RegisterSchema), async (c) => {
    await deps.passwords.admit();
    await limiter.enforce([hit('registerPerClient', c.var.clientAddress)]);
    const input = c.req.valid('json');
    // Only a robot fills in the field people cannot see.
    if (input.website) throw new ApiError(400, 'REGISTRATION_FAILED');

    await refuseCommonPassword(input.password);
    const known = await takenContacts(db, input.email, input.phone);
    if (known.email || known.phone) throw takenError(known);
    const passwordHash = await deps.passwords.hash(input.password);
    // The account and the mail with its code are stored together: the code is delivered by the
    // jobs, so a mail server that is down delays it and loses nothing.
    const id = await db.transaction(async (tx) => {
      const created = await insertAccount(tx, { ...input, passwordHash });
      if (created)
        await issueCode(deps, tx, 'verify', { id: created, email: input.email, name: input.name }, input.language);
      return created;
    });
    if (!id) {
      // Another registration took the address or the number in the meantime.
      const raced = await takenContacts(db, input.email, input.phone);
      if (!raced.email && !raced.phone) throw new ApiError(409, 'REGISTRATION_FAILED');
      throw takenError(raced);
    }
    return c.json({ email: input.email } satisfies RegisterAnswer, 201);
  });

  routes.post(ACCOUNT_API.verify, verifyForm, visitor, jsonBody(VerifySchema), async (c) => {
    await limiter.enforce([hit('verifyPerClient', c.var.clientAddress)]);
    const { email, code } = c.req.valid('json');
    const account = await findAccountByEmail(db, email);
    const verified =
      account !== null &&
      (await db.transaction(async (tx) => {
        if (!(await redeemCode(tx, secret, 'verify', account.id, code))) return false;
        await markVerified(tx, account.id);
        return true;
      }));
    if (!account || !verified)
      throw new ApiError(400, 'VERIFICATION_FAILED', { fields: { code: 'VERIFICATION_FAILED' } });
    // A code from the mailbox proves control: the owner is signed in here, and the sign-in lock
    // others may have set off is lifted for the owner's other browsers.
    await limiter.clear('loginPerAccount', email);
    await startSession(c, db, account.id, ['email-code']);
    return c.json({ account: { name: account.name } } satisfies VerifyAnswer);
  });

  // Answers alike whether or not an unverified account has the address, so it tells no one which exist.
  routes.post(ACCOUNT_API.resendCode, visitor, jsonBody(MailRequestSchema), async (c) => {
    const { email, language } = c.req.valid('json');
    await limiter.enforce(mailHits(c.var.clientAddress, email));
    const account = await findAccountByEmail(db, email);
    if (account && !account.verified) await db.transaction((tx) => issueCode(deps, tx, 'verify', account, language));
    return c.json({}, 202);
  });

  return routes;
}
