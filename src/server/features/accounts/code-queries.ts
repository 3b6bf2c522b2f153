import { timingSafeEqual } from 'node:crypto';
import { deleteCounting, type Queryable } from '#server/platform/db/database.ts';

export type CodePurpose = 'verify' | 'reset';

/** Stores a new code for an account and purpose, replacing any earlier one and its count of tries. */
export async function storeCode(
  db: Queryable,
  accountId: string,
  purpose: CodePurpose,
  codeHash: string,
  lifetimeSeconds: number,
): Promise<void> {
  await db.query(
    `INSERT INTO account_codes (account_id, purpose, code_hash, attempts, expires_at)
     VALUES ($1, $2, $3, 0, statement_timestamp() + $4::double precision * interval '1 second')
     ON CONFLICT (account_id, purpose) DO UPDATE
       SET code_hash = excluded.code_hash, attempts = 0, expires_at = excluded.expires_at`,
    [accountId, purpose, codeHash, lifetimeSeconds],
  );
}

/** Whether the account has a code for this purpose that can still be used. */
export async function hasLiveCode(db: Queryable, accountId: string, purpose: CodePurpose, maxAttempts: number) {
  const rows = await db.query(
    `SELECT 1 FROM account_codes
     WHERE account_id = $1 AND purpose = $2 AND attempts < $3 AND expires_at > statement_timestamp()`,
    [accountId, purpose, maxAttempts],
  );
  return rows.length > 0;
}

/**
 * Spends one try on the account's code and consumes the code when it matches. Each try is counted
 * in one statement before the comparison, so concurrent guesses cannot exceed `maxAttempts`, and
 * the code is deleted on a match, so it works once even when two requests bring it at once.
 */
export async function tryCode(
  db: Queryable,
  accountId: string,
  purpose: CodePurpose,
  codeHash: string,
  maxAttempts: number,
): Promise<boolean> {
  const [row] = await db.query<{ code_hash: string }>(
    `UPDATE account_codes SET attempts = attempts + 1
     WHERE account_id = $1 AND purpose = $2 AND attempts < $3 AND expires_at > statement_timestamp()
     RETURNING code_hash`,
    [accountId, purpose, maxAttempts],
  );
  if (!row) return false;
  const stored = Buffer.from(row.code_hash);
  const given = Buffer.from(codeHash);
  if (stored.length !== given.length || !timingSafeEqual(stored, given)) return false;
  const deleted = await db.query(
    'DELETE FROM account_codes WHERE account_id = $1 AND purpose = $2 AND code_hash = $3 RETURNING 1',
    [accountId, purpose, codeHash],
  );
  return deleted.length > 0;
}

export async function pruneCodes(db: Queryable): Promise<number> {
  return deleteCounting(db, `DELETE FROM account_codes WHERE expires_at <= statement_timestamp()`);
}
