import { REAUTHENTICATION_MINUTES } from '#common/reauthentication-api.ts';
import { ApiError } from '#server/http/api-error.ts';
import type { LimitHit } from '#server/http/rate-limit.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import type { AccountDeps } from './account-deps.ts';
import { type Account, findAccountById } from './account-queries.ts';
import { hit } from './limits.ts';
import { reauthenticatedUntil, spendReauthentication } from './reauthentication-queries.ts';

/** The owner, proved present for a sensitive change; `spend` goes in the change's transaction. */
export interface OwnerProof {
  account: Account;
  /** Spends the re-authentication the proof rested on (nothing for a password); throws when it is gone. */
  spend(tx: Queryable): Promise<void>;
}

const notReauthenticated = () => new ApiError(403, 'REAUTHENTICATION_REQUIRED');

/**
 * The account, once its owner proved to be there for a sensitive change (a session left open is
 * not enough): by the password, or, when none is given, by a sign-in at a linked provider of this
 * session within the last minutes (docs/decisions/220). Password tries count on `hits`; without a
 * password or a re-authentication, an account that has a password is asked for it as before.
 */
export async function confirmOwner(
  { db, limiter, passwords }: Pick<AccountDeps, 'db' | 'limiter' | 'passwords'>,
  session: { accountId: string; tokenHash: string },
  password: string | undefined,
  hits: LimitHit[],
  field = 'password',
): Promise<OwnerProof> {
  if (password === undefined) {
    const account = await findAccountById(db, session.accountId);
    if (!account) throw new ApiError(401, 'UNAUTHORIZED');
    if (!(await reauthenticatedUntil(db, session.tokenHash, REAUTHENTICATION_MINUTES))) {
      if (account.passwordHash === null) throw notReauthenticated();
      throw new ApiError(400, 'VALIDATION_ERROR', { fields: { [field]: 'INVALID_PASSWORD' } });
    }
    await limiter.enforce(hits);
    return {
      account,
      spend: async (tx) => {
        if (!(await spendReauthentication(tx, session.tokenHash, REAUTHENTICATION_MINUTES))) {
          throw notReauthenticated();
        }
      },
    };
  }
  // A signed-in owner's account exists: its check waits in that lane, ahead of a flood of made-up addresses.
  await passwords.admit('account');
  await limiter.enforce(hits);
  const account = await findAccountById(db, session.accountId);
  if (!account) throw new ApiError(401, 'UNAUTHORIZED');
  if (!(await passwords.verify(account.passwordHash, password, 'account'))) {
    throw new ApiError(403, 'AUTHENTICATION_FAILED', { fields: { [field]: 'AUTHENTICATION_FAILED' } });
  }
  return { account, spend: async () => {} };
}

/** The owner, proved present for a change of the second factors; tries count like those of deletion. */
export const confirmFactorChange = (
  deps: Pick<AccountDeps, 'db' | 'limiter' | 'passwords'>,
  session: { accountId: string; tokenHash: string },
  password: string | undefined,
) => confirmOwner(deps, session, password, [hit('factorChangePerAccount', session.accountId)]);
