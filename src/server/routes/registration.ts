import type { Hono } from 'hono';
import { AUTH_API } from '../../common/account-api.ts';
import { MailRequestSchema, RegisterSchema, VerifySchema } from '../../common/account-schemas.ts';
import type { ErrorCode } from '../../common/error-codes.ts';
import { fail } from '../api-error.ts';
import { issueCode, redeemCode } from '../auth/codes.ts';
import { checkLimits, checkMailLimits } from '../auth/limits.ts';
import type { AccountServices } from '../auth/services.ts';
import { startSession } from '../auth/session-cookie.ts';
import { deleteAccount, findAccountByEmail, insertAccount, markVerified, takenContacts } from '../db/accounts.ts';
import { jsonBody } from '../validation.ts';
import { requireVisitor } from '../visitor/require-visitor.ts';

/** EMAIL_ALREADY_EXISTS or PHONE_ALREADY_EXISTS, naming each field that is taken. */
function takenAnswer(taken: { email: boolean; phone: boolean }) {
  const fields: Record<string, ErrorCode> = {};
  if (taken.email) fields.email = 'EMAIL_ALREADY_EXISTS';
  if (taken.phone) fields.phone = 'PHONE_ALREADY_EXISTS';
  const code: ErrorCode = taken.email ? 'EMAIL_ALREADY_EXISTS' : 'PHONE_ALREADY_EXISTS';
  return { code, fields };
}

/** Register, confirm the email address with the mailed code, and ask for a new code. */
export function registrationRoutes(app: Hono, services: AccountServices) {
  const { db, secret } = services;
  const visitor = requireVisitor(secret);

  app.post(AUTH_API.register, visitor, jsonBody(RegisterSchema), async (c) => {
    const limited = await checkLimits(c, services, ['registerPerClient']);
    if (limited) return limited;
    const input = c.req.valid('json');
    // Only a robot fills in the field people cannot see.
    if (input.website) return fail(c, 400, 'REGISTRATION_FAILED');

    const known = await takenContacts(db, input.email, input.phone);
    if (known.email || known.phone) {
      const { code, fields } = takenAnswer(known);
      return fail(c, 409, code, fields);
    }
    const passwordHash = await services.passwords.hash(input.password);
    const id = await insertAccount(db, { ...input, passwordHash });
    if (!id) {
      // Another registration took the address or the number in the meantime.
      const raced = await takenContacts(db, input.email, input.phone);
      if (!raced.email && !raced.phone) return fail(c, 409, 'REGISTRATION_FAILED');
      const { code, fields } = takenAnswer(raced);
      return fail(c, 409, code, fields);
    }

    try {
      await issueCode(services, 'verify', { id, email: input.email, name: input.name }, input.language);
    } catch (error) {
      // Without its code the account could never be confirmed: undo it, so the visitor can simply try again.
      console.error('Verification mail could not be sent:', (error as Error).message);
      await deleteAccount(db, id);
      return fail(c, 503, 'REGISTRATION_FAILED');
    }
    return c.json({ email: input.email }, 201);
  });

  app.post(AUTH_API.verify, visitor, jsonBody(VerifySchema), async (c) => {
    const limited = await checkLimits(c, services, ['verifyPerClient']);
    if (limited) return limited;
    const { email, code } = c.req.valid('json');
    const account = await findAccountByEmail(db, email);
    const verified =
      account !== null &&
      (await db.transaction(async (tx) => {
        if (!(await redeemCode(tx, secret, 'verify', account.id, code))) return false;
        await markVerified(tx, account.id);
        return true;
      }));
    if (!account || !verified) return fail(c, 400, 'VERIFICATION_FAILED', { code: 'VERIFICATION_FAILED' });
    await startSession(c, db, account.id);
    return c.json({ account: { name: account.name } });
  });

  // Answers alike whether or not an unverified account has the address, so it tells no one which exist.
  app.post(AUTH_API.resendCode, visitor, jsonBody(MailRequestSchema), async (c) => {
    const { email, language } = c.req.valid('json');
    const limited = await checkMailLimits(c, services, email);
    if (limited) return limited;
    const account = await findAccountByEmail(db, email);
    if (account && !account.verified) {
      try {
        await issueCode(services, 'verify', account, language);
      } catch (error) {
        console.error('Verification mail could not be sent:', (error as Error).message);
        return fail(c, 503, 'SERVER_ERROR');
      }
    }
    return c.json({}, 202);
  });
}
