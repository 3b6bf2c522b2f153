import { deleteCounting, type Queryable } from '#server/platform/db/database.ts';

export interface Account {
  id: string;
  name: string;
  email: string;
  /** Null for staff added by the command or an admin, who were never asked for one. */
  phone: string | null;
  /** Null for an account made by signing in with an identity provider, until its owner sets one. */
  passwordHash: string | null;
  language: string;
  verified: boolean;
  createdAt: Date;
}

const COLUMNS = `id, name, email, phone, password_hash AS "passwordHash", language,
  verified_at IS NOT NULL AS verified, created_at AS "createdAt"`;

export async function findAccountByEmail(db: Queryable, email: string): Promise<Account | null> {
  const [row] = await db.query<Account>(`SELECT ${COLUMNS} FROM accounts WHERE email = $1`, [email]);
  return row ?? null;
}

export async function findAccountById(db: Queryable, id: string): Promise<Account | null> {
  const [row] = await db.query<Account>(`SELECT ${COLUMNS} FROM accounts WHERE id = $1`, [id]);
  return row ?? null;
}

/** Which of an email and a phone number an account already has. */
export async function takenContacts(db: Queryable, email: string, phone: string) {
  const [row] = await db.query<{ email: boolean; phone: boolean }>(
    `SELECT coalesce(bool_or(email = $1), false) AS email, coalesce(bool_or(phone = $2), false) AS phone
     FROM accounts WHERE email = $1 OR phone = $2`,
    [email, phone],
  );
  return row ?? { email: false, phone: false };
}

/**
 * Creates an unverified account, or returns null when the email or the phone is taken. The unique
 * constraints decide, so of many concurrent registrations exactly one gets through.
 */
export async function insertAccount(
  db: Queryable,
  account: Pick<Account, 'name' | 'email' | 'passwordHash' | 'language'> & { phone: string },
): Promise<string | null> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO accounts (name, email, phone, password_hash, language) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING RETURNING id`,
    [account.name, account.email, account.phone, account.passwordHash, account.language],
  );
  return row?.id ?? null;
}

export async function markVerified(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE accounts SET verified_at = coalesce(verified_at, now()) WHERE id = $1', [id]);
}

export async function setPasswordHash(db: Queryable, id: string, passwordHash: string): Promise<void> {
  await db.query('UPDATE accounts SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
}

/** Deletes an account; its codes and sessions go with it (ON DELETE CASCADE). */
export async function deleteAccount(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM accounts WHERE id = $1', [id]);
}

/** Removes unverified accounts older than `seconds`; returns how many. */
export async function pruneUnverifiedAccounts(db: Queryable, seconds: number): Promise<number> {
  return deleteCounting(
    db,
    `DELETE FROM accounts WHERE verified_at IS NULL AND created_at < statement_timestamp() - $1::double precision * interval '1 second'`,
    [seconds],
  );
}

/** Deletes accounts nobody signed in to for `seconds`, with everything that belongs to them; returns how many. */
export async function pruneInactiveAccounts(db: Queryable, seconds: number): Promise<number> {
  return deleteCounting(
    db,
    `DELETE FROM accounts WHERE last_active_at < statement_timestamp() - $1::double precision * interval '1 second'`,
    [seconds],
  );
}

/** Records a sign-in, which keeps the account from being deleted as unused. */
export async function markActive(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE accounts SET last_active_at = now() WHERE id = $1', [id]);
}
