import type { Queryable } from '#server/platform/db/database.ts';

/**
 * A session's re-authentication at a provider (docs/decisions/220): recorded on the session, good
 * for `minutes`, spent by the change it allowed. Times are the database's, like the session's own.
 */

/** Records that the session's owner just signed in again at a provider linked to the account. */
export async function markReauthenticated(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('UPDATE sessions SET reauthenticated_at = statement_timestamp() WHERE token_hash = $1', [tokenHash]);
}

/** Until when the session's last re-authentication stands in for the password; null when it does not. */
export async function reauthenticatedUntil(db: Queryable, tokenHash: string, minutes: number): Promise<Date | null> {
  const [row] = await db.query<{ until: Date }>(
    `SELECT reauthenticated_at + $2::double precision * interval '1 minute' AS until FROM sessions
     WHERE token_hash = $1 AND reauthenticated_at + $2::double precision * interval '1 minute' > statement_timestamp()`,
    [tokenHash, minutes],
  );
  return row?.until ?? null;
}

/**
 * Spends a live re-authentication, in the transaction of the change it allows: false when there is
 * none (it lapsed, or another change spent it first), and the change must not go through.
 */
export async function spendReauthentication(db: Queryable, tokenHash: string, minutes: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE sessions SET reauthenticated_at = NULL
     WHERE token_hash = $1 AND reauthenticated_at + $2::double precision * interval '1 minute' > statement_timestamp()
     RETURNING 1`,
    [tokenHash, minutes],
  );
  return rows.length > 0;
}
