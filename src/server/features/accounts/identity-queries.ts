import type { Database, Queryable } from '#server/platform/db/database.ts';
import type { Factor } from './second-factor-queries.ts';

export interface StoredIdentity {
  id: string;
  accountId: string;
  issuer: string;
  subject: string;
  email: string | null;
  createdAt: Date;
}

const COLUMNS = `id, account_id AS "accountId", issuer, subject, email, created_at AS "createdAt"`;

export async function findIdentity(db: Queryable, issuer: string, subject: string): Promise<StoredIdentity | null> {
  const [row] = await db.query<StoredIdentity>(
    `SELECT ${COLUMNS} FROM account_identities WHERE issuer = $1 AND subject = $2`,
    [issuer, subject],
  );
  return row ?? null;
}

export async function listIdentities(db: Queryable, accountId: string): Promise<StoredIdentity[]> {
  return db.query<StoredIdentity>(
    `SELECT ${COLUMNS} FROM account_identities WHERE account_id = $1 ORDER BY created_at`,
    [accountId],
  );
}

/**
 * Links an identity to an account; false when the identity belongs to an account already, or the
 * account has one at this provider (the unique constraints decide, whatever runs at the same time).
 */
export async function insertIdentity(
  db: Queryable,
  identity: Pick<StoredIdentity, 'accountId' | 'issuer' | 'subject' | 'email'>,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO account_identities (account_id, issuer, subject, email, last_used_at) VALUES ($1, $2, $3, $4, now())
     ON CONFLICT DO NOTHING RETURNING 1`,
    [identity.accountId, identity.issuer, identity.subject, identity.email],
  );
  return rows.length > 0;
}

/** Records a sign-in with the identity and the address the provider gives for it now. */
export async function markIdentityUsed(db: Queryable, id: string, email: string | null): Promise<void> {
  await db.query('UPDATE account_identities SET last_used_at = now(), email = $2 WHERE id = $1', [id, email]);
}

/**
 * Unlinks one of the account's identities, but only while another way in remains (a password or
 * another identity), checked in the same statement so two unlinks at once cannot both pass.
 * 'gone' when the account has no such identity, 'last' when it is the only way in.
 */
export function unlinkIdentity(db: Database, accountId: string, id: string): Promise<'unlinked' | 'gone' | 'last'> {
  return db.transaction((tx) => unlinkIn(tx, accountId, id));
}

async function unlinkIn(db: Queryable, accountId: string, id: string): Promise<'unlinked' | 'gone' | 'last'> {
  // The account's row is locked first, so that concurrent unlinks of its identities go one by one.
  const [account] = await db.query<{ hasPassword: boolean }>(
    'SELECT password_hash IS NOT NULL AS "hasPassword" FROM accounts WHERE id = $1 FOR UPDATE',
    [accountId],
  );
  if (!account) return 'gone';
  const identities = await db.query<{ id: string }>('SELECT id FROM account_identities WHERE account_id = $1', [
    accountId,
  ]);
  if (!identities.some((identity) => identity.id === id)) return 'gone';
  if (!account.hasPassword && identities.length < 2) return 'last';
  await db.query('DELETE FROM account_identities WHERE id = $1 AND account_id = $2', [id, accountId]);
  return 'unlinked';
}

/** Whether the account can sign in with a password (an account made with a provider has none until it sets one). */
export async function hasPassword(db: Queryable, accountId: string): Promise<boolean> {
  const [row] = await db.query<{ has: boolean }>(
    'SELECT password_hash IS NOT NULL AS has FROM accounts WHERE id = $1',
    [accountId],
  );
  return row?.has ?? false;
}

/**
 * Makes a confirmed account for someone a provider vouches for (its address verified there), with
 * no password and no phone number; null when the address belongs to an account already.
 */
export async function insertProviderAccount(
  db: Queryable,
  account: { name: string; email: string; language: string },
): Promise<string | null> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO accounts (name, email, phone, password_hash, language, verified_at) VALUES ($1, $2, NULL, NULL, $3, now())
     ON CONFLICT DO NOTHING RETURNING id`,
    [account.name, account.email, account.language],
  );
  return row?.id ?? null;
}

export interface OidcSignIn {
  provider: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  language: string;
  linkAccountId: string | null;
  /** The hash of the session's token, when the session's owner signs in again to confirm a change. */
  reauthenticateSession: string | null;
  /** Where on the account page to go back to after that. */
  returnTo: string | null;
}

/** A sign-in taken back at the callback, with when it was started. */
export interface TakenOidcSignIn extends OidcSignIn {
  createdAt: Date;
}

export async function createOidcSignIn(db: Queryable, tokenHash: string, signIn: OidcSignIn, seconds: number) {
  // Sign-ins abandoned at the provider are cleared by the next one; they hold nothing once lapsed.
  await db.query('DELETE FROM oidc_sign_ins WHERE expires_at <= statement_timestamp()');
  await db.query(
    `INSERT INTO oidc_sign_ins (token_hash, provider, state, nonce, code_verifier, language, link_account_id,
       reauthenticate_session, return_to, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, statement_timestamp() + $10::double precision * interval '1 second')`,
    [
      tokenHash,
      signIn.provider,
      signIn.state,
      signIn.nonce,
      signIn.codeVerifier,
      signIn.language,
      signIn.linkAccountId,
      signIn.reauthenticateSession,
      signIn.returnTo,
      seconds,
    ],
  );
}

/** Takes (reads and deletes) the live sign-in this browser started: each works once. */
export async function takeOidcSignIn(db: Queryable, tokenHash: string): Promise<TakenOidcSignIn | null> {
  const [row] = await db.query<TakenOidcSignIn>(
    `DELETE FROM oidc_sign_ins WHERE token_hash = $1 AND expires_at > statement_timestamp()
     RETURNING provider, state, nonce, code_verifier AS "codeVerifier", language, link_account_id AS "linkAccountId",
       reauthenticate_session AS "reauthenticateSession", return_to AS "returnTo", created_at AS "createdAt"`,
    [tokenHash],
  );
  return row ?? null;
}

/** A pending sign-in whose first step was not a password: the second step's session records it. */
export async function createPendingSignInAfter(
  db: Queryable,
  tokenHash: string,
  accountId: string,
  seconds: number,
  firstFactor: Factor,
) {
  await db.query(
    `INSERT INTO pending_sign_ins (token_hash, account_id, expires_at, first_factor)
     VALUES ($1, $2, statement_timestamp() + $3::double precision * interval '1 second', $4)`,
    [tokenHash, accountId, seconds, firstFactor],
  );
}

/** The first factor of a pending sign-in (a password unless it said otherwise). */
export async function pendingFirstFactor(db: Queryable, tokenHash: string): Promise<Factor> {
  const [row] = await db.query<{ factor: Factor }>(
    'SELECT first_factor AS factor FROM pending_sign_ins WHERE token_hash = $1',
    [tokenHash],
  );
  return row?.factor ?? 'password';
}
