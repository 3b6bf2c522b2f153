import type { Queryable } from '#server/platform/db/database.ts';

export interface ListedSession {
  id: string;
  label: string;
  factors: string[];
  createdAt: Date;
  lastSeenAt: Date;
  current: boolean;
}

/**
 * The account's sessions that still let someone in (neither past their end nor idle too long),
 * the most recently used first; `current` marks the one whose token hash is given.
 */
export function listSessions(
  db: Queryable,
  accountId: string,
  currentTokenHash: string,
  idleSeconds: number,
): Promise<ListedSession[]> {
  return db.query<ListedSession>(
    `SELECT id, label, factors, created_at AS "createdAt", last_seen_at AS "lastSeenAt", token_hash = $2 AS current
     FROM sessions
     WHERE account_id = $1 AND expires_at > statement_timestamp()
       AND last_seen_at + $3::double precision * interval '1 second' > statement_timestamp()
     ORDER BY token_hash = $2 DESC, last_seen_at DESC`,
    [accountId, currentTokenHash, idleSeconds],
  );
}

/** Ends one session of the account, named by its id; the hash of its token when there was one. */
export async function deleteSessionById(db: Queryable, accountId: string, id: string): Promise<string | null> {
  const [row] = await db.query<{ tokenHash: string }>(
    'DELETE FROM sessions WHERE account_id = $1 AND id = $2 RETURNING token_hash AS "tokenHash"',
    [accountId, id],
  );
  return row?.tokenHash ?? null;
}
