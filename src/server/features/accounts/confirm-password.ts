import { ApiError } from '#server/http/api-error.ts';
import type { AccountDeps } from './account-deps.ts';
import { findAccountById } from './account-queries.ts';
import { hit } from './limits.ts';

/**
 * The account, once its password is confirmed for a change of its second factors (a session left
 * open is not enough); wrong passwords count like those of deletion.
 */
export async function confirmPassword(
  { db, limiter, passwords }: Pick<AccountDeps, 'db' | 'limiter' | 'passwords'>,
  accountId: string,
  password: string,
) {
  await passwords.admit();
  await limiter.enforce([hit('factorChangePerAccount', accountId)]);
  const account = await findAccountById(db, accountId);
  if (!account) throw new ApiError(401, 'UNAUTHORIZED');
  if (!(await passwords.verify(account.passwordHash, password))) {
    throw new ApiError(403, 'AUTHENTICATION_FAILED', { fields: { password: 'AUTHENTICATION_FAILED' } });
  }
  return account;
}
