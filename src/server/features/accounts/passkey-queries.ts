import type { Queryable } from '#server/platform/db/database.ts';

export interface StoredPasskey {
  id: string;
  accountId: string;
  /** base64url, as WebAuthn hands it over. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const COLUMNS = `id, account_id AS "accountId", credential_id AS "credentialId", public_key AS "publicKey",
  counter::double precision AS counter, transports, name, created_at AS "createdAt", last_used_at AS "lastUsedAt"`;

export async function listPasskeys(db: Queryable, accountId: string): Promise<StoredPasskey[]> {
  return db.query<StoredPasskey>(`SELECT ${COLUMNS} FROM passkeys WHERE account_id = $1 ORDER BY created_at`, [
    accountId,
  ]);
}

/**
 * A sign-in challenge that lives, with the passkey that answered it (null when no passkey has that
 * credential), read without taking it: spendSignInChallenge takes it with the passkey's use, so a
 * good sign-in costs one read and one write, and dropChallenge takes it after a wrong answer.
 */
export async function readSignInChallenge(
  db: Queryable,
  tokenHash: string,
  credentialId: string,
): Promise<{ challenge: string; passkey: StoredPasskey | null } | null> {
  const [row] = await db.query<StoredPasskey & { challenge: string }>(
    `SELECT passkey_challenges.challenge, ${COLUMNS}
     FROM passkey_challenges LEFT JOIN passkeys ON passkeys.credential_id = $2
     WHERE token_hash = $1 AND purpose = 'sign-in' AND session_hash IS NULL
       AND expires_at > statement_timestamp()`,
    [tokenHash, credentialId],
  );
  if (!row) return null;
  const { challenge, ...passkey } = row;
  return { challenge, passkey: passkey.id === null ? null : passkey };
}

/**
 * Takes the sign-in challenge and records the passkey's use in one statement. The challenge is
 * deleted whatever the rest does; the use counts only if this statement took it (of two requests
 * with the same answer, the second finds it gone) and the counter moves forward, so a replayed or
 * cloned signature is refused (synced passkeys say 0 every time, and have nothing to compare).
 */
export async function spendSignInChallenge(
  db: Queryable,
  tokenHash: string,
  passkeyId: string,
  counter: number,
): Promise<boolean> {
  const rows = await db.query(
    `WITH taken AS (DELETE FROM passkey_challenges WHERE token_hash = $1 AND purpose = 'sign-in' RETURNING 1)
     UPDATE passkeys SET counter = $3, last_used_at = now()
     WHERE id = $2 AND (counter < $3 OR ($3 = 0 AND counter = 0)) AND EXISTS (SELECT 1 FROM taken)
     RETURNING 1`,
    [tokenHash, passkeyId, counter],
  );
  return rows.length > 0;
}

/** Takes a challenge that was answered wrongly: an answer is checked once, right or wrong. */
export async function dropChallenge(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('DELETE FROM passkey_challenges WHERE token_hash = $1', [tokenHash]);
}

export async function countPasskeys(db: Queryable, accountId: string): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    'SELECT count(*)::integer AS count FROM passkeys WHERE account_id = $1',
    [accountId],
  );
  return row?.count ?? 0;
}

/** Keeps a new passkey; null when its credential is stored already (for any account). */
export async function addPasskey(
  db: Queryable,
  passkey: Pick<StoredPasskey, 'accountId' | 'credentialId' | 'publicKey' | 'counter' | 'transports' | 'name'>,
): Promise<StoredPasskey | null> {
  const [row] = await db.query<StoredPasskey>(
    `INSERT INTO passkeys (account_id, credential_id, public_key, counter, transports, name)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (credential_id) DO NOTHING RETURNING ${COLUMNS}`,
    [passkey.accountId, passkey.credentialId, passkey.publicKey, passkey.counter, passkey.transports, passkey.name],
  );
  return row ?? null;
}

export async function renamePasskey(db: Queryable, accountId: string, id: string, name: string): Promise<boolean> {
  const rows = await db.query('UPDATE passkeys SET name = $3 WHERE account_id = $1 AND id = $2 RETURNING 1', [
    accountId,
    id,
    name,
  ]);
  return rows.length > 0;
}

/** Deletes one of the account's passkeys; its name, or null when it has none by that id. */
export async function deletePasskey(db: Queryable, accountId: string, id: string): Promise<string | null> {
  const [row] = await db.query<{ name: string }>(
    'DELETE FROM passkeys WHERE account_id = $1 AND id = $2 RETURNING name',
    [accountId, id],
  );
  return row?.name ?? null;
}

export type ChallengePurpose = 'add' | 'sign-in';

export async function saveChallenge(
  db: Queryable,
  challenge: { tokenHash: string; challenge: string; purpose: ChallengePurpose; sessionHash: string | null },
  seconds: number,
): Promise<void> {
  await db.query(
    `INSERT INTO passkey_challenges (token_hash, challenge, purpose, session_hash, expires_at)
     VALUES ($1, $2, $3, $4, statement_timestamp() + $5::double precision * interval '1 second')`,
    [challenge.tokenHash, challenge.challenge, challenge.purpose, challenge.sessionHash, seconds],
  );
}

/**
 * Takes a challenge for its answer: deleted in the statement that reads it, so it is answered once,
 * and only while it lives, for its purpose, and (to add a passkey) from the session that asked.
 */
export async function takeChallenge(
  db: Queryable,
  tokenHash: string,
  purpose: ChallengePurpose,
  sessionHash: string | null,
): Promise<string | null> {
  const [row] = await db.query<{ challenge: string; live: boolean; sameSession: boolean }>(
    `DELETE FROM passkey_challenges WHERE token_hash = $1 AND purpose = $2
     RETURNING challenge, expires_at > statement_timestamp() AS live,
       session_hash IS NOT DISTINCT FROM $3 AS "sameSession"`,
    [tokenHash, purpose, sessionHash],
  );
  return row?.live && row.sameSession ? row.challenge : null;
}

/** Deletes challenges nobody answered in time. */
export async function pruneChallenges(db: Queryable): Promise<void> {
  await db.query('DELETE FROM passkey_challenges WHERE expires_at <= statement_timestamp()');
}
