import { deleteCounting, type Queryable } from '#server/platform/db/database.ts';
import type { Factor } from './second-factor-queries.ts';

export interface StoredSession {
  accountId: string;
  name: string;
  /** What it was made with: a password, and a second factor or not. */
  factors: Factor[];
  /** Past its absolute end, or unused for longer than the idle timeout. */
  lapsed: boolean;
  /** Seconds since it was last used, as the database's clock sees it. */
  idleSeconds: number;
}

export async function createSession(
  db: Queryable,
  tokenHash: string,
  accountId: string,
  lifetimeSeconds: number,
  factors: readonly Factor[],
  label = '',
): Promise<void> {
  await db.query(
    `INSERT INTO sessions (token_hash, account_id, expires_at, factors, label)
     VALUES ($1, $2, statement_timestamp() + $3::double precision * interval '1 second', $4::text[], $5)`,
    [tokenHash, accountId, lifetimeSeconds, factors, label],
  );
}

export async function findSession(
  db: Queryable,
  tokenHash: string,
  idleSeconds: number,
): Promise<StoredSession | null> {
  const [row] = await db.query<StoredSession>(
    `SELECT s.account_id AS "accountId", a.name, s.factors,
       (s.expires_at <= statement_timestamp()
         OR s.last_seen_at + $2::double precision * interval '1 second' <= statement_timestamp()) AS lapsed,
       extract(epoch FROM statement_timestamp() - s.last_seen_at)::double precision AS "idleSeconds"
     FROM sessions s JOIN accounts a ON a.id = s.account_id
     WHERE s.token_hash = $1`,
    [tokenHash, idleSeconds],
  );
  return row ?? null;
}

export async function touchSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('UPDATE sessions SET last_seen_at = statement_timestamp() WHERE token_hash = $1', [tokenHash]);
}

export async function deleteSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
}

/** Ends every session of an account: sign out everywhere, and after a password change. */
export async function deleteAccountSessions(db: Queryable, accountId: string): Promise<number> {
  return deleteCounting(db, `DELETE FROM sessions WHERE account_id = $1`, [accountId]);
}

/**
 * Ends every session of an account but the one named: after a factor is added or removed, only
 * the browser that did it stays signed in.
 */
export async function deleteOtherSessions(db: Queryable, accountId: string, keepTokenHash: string): Promise<number> {
  return deleteCounting(db, `DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2`, [
    accountId,
    keepTokenHash,
  ]);
}

/** Records that a session proved one more factor (the one that just set up an authenticator app). */
export async function addSessionFactor(db: Queryable, tokenHash: string, factor: Factor): Promise<void> {
  await db.query(
    `UPDATE sessions SET factors = array_append(factors, $2::text) WHERE token_hash = $1 AND NOT ($2 = ANY(factors))`,
    [tokenHash, factor],
  );
}

/**
 * Deletes sessions past their absolute end (their cookie is gone from the browser by then). Idle
 * sessions stay until that end, so that a visitor coming back is told the session expired.
 */
export async function pruneSessions(db: Queryable): Promise<number> {
  return deleteCounting(db, `DELETE FROM sessions WHERE expires_at <= statement_timestamp()`);
}
