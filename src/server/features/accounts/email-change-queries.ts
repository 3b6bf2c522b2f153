import { timingSafeEqual } from 'node:crypto';
import { deleteCounting, type Queryable } from '#server/platform/db/database.ts';

/** Stores the new address waiting for its code, replacing an earlier one and its count of tries. */
export async function storeEmailChange(
  db: Queryable,
  change: { accountId: string; newEmail: string; codeHash: string; seconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO email_changes (account_id, new_email, code_hash, expires_at)
     VALUES ($1, $2, $3, statement_timestamp() + $4::double precision * interval '1 second')
     ON CONFLICT (account_id) DO UPDATE
       SET new_email = excluded.new_email, code_hash = excluded.code_hash, attempts = 0,
           created_at = statement_timestamp(), expires_at = excluded.expires_at`,
    [change.accountId, change.newEmail, change.codeHash, change.seconds],
  );
}

/**
 * Spends one try on the account's pending change: the new address when the code's hash matched
 * (the change is then used up), null otherwise. As with the other codes, the try is counted in
 * one statement before the comparison, so concurrent guesses cannot exceed `maxAttempts`.
 */
export async function redeemEmailChange(
  db: Queryable,
  accountId: string,
  codeHashOf: (newEmail: string) => string,
  maxAttempts: number,
): Promise<string | null> {
  const [row] = await db.query<{ newEmail: string; codeHash: string }>(
    `UPDATE email_changes SET attempts = attempts + 1
     WHERE account_id = $1 AND attempts < $2 AND expires_at > statement_timestamp()
     RETURNING new_email AS "newEmail", code_hash AS "codeHash"`,
    [accountId, maxAttempts],
  );
  if (!row) return null;
  const stored = Buffer.from(row.codeHash);
  const given = Buffer.from(codeHashOf(row.newEmail));
  if (stored.length !== given.length || !timingSafeEqual(stored, given)) return null;
  const deleted = await db.query('DELETE FROM email_changes WHERE account_id = $1 AND code_hash = $2 RETURNING 1', [
    accountId,
    row.codeHash,
  ]);
  return deleted.length > 0 ? row.newEmail : null;
}

/** Gives the account a new address; false when another account has it (the unique constraint decides). */
export async function setEmail(db: Queryable, accountId: string, email: string): Promise<boolean> {
  try {
    const rows = await db.query(
      `UPDATE accounts SET email = $2 WHERE id = $1
         AND NOT EXISTS (SELECT 1 FROM accounts WHERE email = $2 AND id <> $1) RETURNING 1`,
      [accountId, email],
    );
    return rows.length > 0;
  } catch (error) {
    // A registration that took the address between the check and the update: unique_violation.
    if ((error as { code?: string }).code === '23505') return false;
    throw error;
  }
}

export async function storeEmailUndo(
  db: Queryable,
  undo: { tokenHash: string; accountId: string; oldEmail: string; newEmail: string; seconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO email_change_undos (token_hash, account_id, old_email, new_email, expires_at)
     VALUES ($1, $2, $3, $4, statement_timestamp() + $5::double precision * interval '1 second')`,
    [undo.tokenHash, undo.accountId, undo.oldEmail, undo.newEmail, undo.seconds],
  );
}

/**
 * Takes the undo link whose token has this hash, if it has not lapsed: it works once. Every other
 * undo of the account goes too, since the address it would restore is restored now.
 */
export async function takeEmailUndo(
  db: Queryable,
  tokenHash: string,
): Promise<{ accountId: string; oldEmail: string } | null> {
  const [row] = await db.query<{ accountId: string; oldEmail: string }>(
    `DELETE FROM email_change_undos WHERE token_hash = $1 AND expires_at > statement_timestamp()
     RETURNING account_id AS "accountId", old_email AS "oldEmail"`,
    [tokenHash],
  );
  if (row) await db.query('DELETE FROM email_change_undos WHERE account_id = $1', [row.accountId]);
  return row ?? null;
}

/** Pending changes whose code lapsed, and undo links past their days. */
export async function pruneEmailChanges(db: Queryable): Promise<number> {
  return (
    (await deleteCounting(db, 'DELETE FROM email_changes WHERE expires_at <= statement_timestamp()')) +
    (await deleteCounting(db, 'DELETE FROM email_change_undos WHERE expires_at <= statement_timestamp()'))
  );
}
