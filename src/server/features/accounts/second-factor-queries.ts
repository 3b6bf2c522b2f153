import { deleteCounting, type Queryable } from '#server/platform/db/database.ts';

/** A session's factors, as `sessions.factors` records them. */
/** `oidc`: an identity provider signed the visitor in; `oidc-mfa`: and reported a second factor (its `amr`). */
export type Factor =
  | 'password'
  | 'email-code'
  | 'totp'
  | 'recovery-code'
  | 'trusted-browser'
  | 'passkey'
  | 'oidc'
  | 'oidc-mfa';

export interface StoredTotp {
  /** Sealed (see totp.ts). */
  secret: string;
  confirmed: boolean;
}

export async function findTotp(db: Queryable, accountId: string): Promise<StoredTotp | null> {
  const [row] = await db.query<StoredTotp>(
    'SELECT secret, confirmed_at IS NOT NULL AS confirmed FROM account_totp WHERE account_id = $1',
    [accountId],
  );
  return row ?? null;
}

/** Keeps a new, unconfirmed secret, replacing an earlier unconfirmed one; false when the account already has one confirmed. */
export async function savePendingTotp(db: Queryable, accountId: string, sealedSecret: string): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO account_totp (account_id, secret) VALUES ($1, $2)
     ON CONFLICT (account_id) DO UPDATE SET secret = excluded.secret, created_at = now(), last_step = 0
       WHERE account_totp.confirmed_at IS NULL
     RETURNING 1`,
    [accountId, sealedSecret],
  );
  return rows.length > 0;
}

/** Confirms the pending secret with the step of its first code; false when there is none pending. */
export async function confirmTotp(db: Queryable, accountId: string, step: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE account_totp SET confirmed_at = now(), last_step = $2
     WHERE account_id = $1 AND confirmed_at IS NULL RETURNING 1`,
    [accountId, step],
  );
  return rows.length > 0;
}

/**
 * Accepts a code's time step only when it is later than the last one accepted, in one statement,
 * so that a code works once even when two requests bring it at the same moment.
 */
export async function acceptTotpStep(db: Queryable, accountId: string, step: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE account_totp SET last_step = $2
     WHERE account_id = $1 AND confirmed_at IS NOT NULL AND last_step < $2 RETURNING 1`,
    [accountId, step],
  );
  return rows.length > 0;
}

export async function deleteTotp(db: Queryable, accountId: string): Promise<void> {
  await db.query('DELETE FROM account_totp WHERE account_id = $1', [accountId]);
}

/** Whether the account has a confirmed authenticator app. */
export async function hasTotp(db: Queryable, accountId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM account_totp WHERE account_id = $1 AND confirmed_at IS NOT NULL', [
    accountId,
  ]);
  return rows.length > 0;
}

/** Whether the account has a second factor it can sign in with: an authenticator app or a passkey. */
export async function hasSecondFactor(db: Queryable, accountId: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM account_totp WHERE account_id = $1 AND confirmed_at IS NOT NULL
     UNION ALL SELECT 1 FROM passkeys WHERE account_id = $1 LIMIT 1`,
    [accountId],
  );
  return rows.length > 0;
}

/** A new set of recovery codes in place of the old one, whose codes stop working. */
export async function replaceRecoveryCodes(db: Queryable, accountId: string, hashes: readonly string[]) {
  await db.query('DELETE FROM recovery_codes WHERE account_id = $1', [accountId]);
  await db.query('INSERT INTO recovery_codes (account_id, code_hash) SELECT $1, unnest($2::text[])', [
    accountId,
    hashes,
  ]);
}

/** Marks a recovery code used; false when it is not one of the account's or was used before. */
export async function spendRecoveryCode(db: Queryable, accountId: string, hash: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE recovery_codes SET used_at = now()
     WHERE account_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING 1`,
    [accountId, hash],
  );
  return rows.length > 0;
}

export async function recoveryCodesLeft(db: Queryable, accountId: string): Promise<number> {
  const [row] = await db.query<{ left: number }>(
    'SELECT count(*)::integer AS left FROM recovery_codes WHERE account_id = $1 AND used_at IS NULL',
    [accountId],
  );
  return row?.left ?? 0;
}

export async function deleteRecoveryCodes(db: Queryable, accountId: string): Promise<void> {
  await db.query('DELETE FROM recovery_codes WHERE account_id = $1', [accountId]);
}

export async function createPendingSignIn(db: Queryable, tokenHash: string, accountId: string, seconds: number) {
  await db.query(
    `INSERT INTO pending_sign_ins (token_hash, account_id, expires_at)
     VALUES ($1, $2, statement_timestamp() + $3::double precision * interval '1 second')`,
    [tokenHash, accountId, seconds],
  );
}

/**
 * Spends one try of a pending sign-in and returns its account, or null when it is unknown, lapsed
 * or out of tries. The try is counted in the statement that reads it, so concurrent guesses
 * cannot exceed `maxAttempts`.
 */
export async function tryPendingSignIn(db: Queryable, tokenHash: string, maxAttempts: number): Promise<string | null> {
  const [row] = await db.query<{ accountId: string }>(
    `UPDATE pending_sign_ins SET attempts = attempts + 1
     WHERE token_hash = $1 AND attempts < $2 AND expires_at > statement_timestamp()
     RETURNING account_id AS "accountId"`,
    [tokenHash, maxAttempts],
  );
  return row?.accountId ?? null;
}

/** Ends a pending sign-in; false when another request ended it first, so it completes once. */
export async function deletePendingSignIn(db: Queryable, tokenHash: string): Promise<boolean> {
  return (await deleteCounting(db, 'DELETE FROM pending_sign_ins WHERE token_hash = $1', [tokenHash])) > 0;
}

export interface TrustedBrowser {
  id: string;
  label: string;
  createdAt: Date;
  expiresAt: Date;
  tokenHash: string;
}

export async function addTrustedBrowser(
  db: Queryable,
  browser: { tokenHash: string; accountId: string; label: string; seconds: number },
) {
  await db.query(
    `INSERT INTO trusted_browsers (token_hash, account_id, label, expires_at)
     VALUES ($1, $2, $3, statement_timestamp() + $4::double precision * interval '1 second')`,
    [browser.tokenHash, browser.accountId, browser.label, browser.seconds],
  );
}

/** Whether the browser with this token is trusted for this account, now. */
export async function isTrustedBrowser(db: Queryable, tokenHash: string, accountId: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM trusted_browsers
     WHERE token_hash = $1 AND account_id = $2 AND expires_at > statement_timestamp()`,
    [tokenHash, accountId],
  );
  return rows.length > 0;
}

export async function listTrustedBrowsers(db: Queryable, accountId: string): Promise<TrustedBrowser[]> {
  return db.query<TrustedBrowser>(
    `SELECT id, label, created_at AS "createdAt", expires_at AS "expiresAt", token_hash AS "tokenHash"
     FROM trusted_browsers WHERE account_id = $1 AND expires_at > statement_timestamp() ORDER BY created_at DESC`,
    [accountId],
  );
}

/** Stops trusting one of the account's browsers; false when it has none by that id. */
export async function deleteTrustedBrowser(db: Queryable, accountId: string, id: string): Promise<boolean> {
  return (
    (await deleteCounting(db, 'DELETE FROM trusted_browsers WHERE account_id = $1 AND id = $2', [accountId, id])) > 0
  );
}

export async function deleteTrustedBrowsers(db: Queryable, accountId: string): Promise<void> {
  await db.query('DELETE FROM trusted_browsers WHERE account_id = $1', [accountId]);
}

/** Deletes lapsed pending sign-ins and trust past its end. */
export async function pruneSecondFactorState(db: Queryable): Promise<void> {
  await db.query('DELETE FROM pending_sign_ins WHERE expires_at <= statement_timestamp()');
  await db.query('DELETE FROM trusted_browsers WHERE expires_at <= statement_timestamp()');
}
