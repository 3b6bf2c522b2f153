import { createHash } from 'node:crypto';
import type { StaffRole } from '#common/roles.ts';
import type { Queryable } from '#server/platform/db/database.ts';

/** Someone the tests and benchmarks seed as staff, and the session they are signed in with. */
export interface SeededPerson {
  name: string;
  email: string;
  phone: string;
  sessionToken: string;
}

/**
 * Writes a staff member straight into a migrated database, before the server starts: the account
 * with `role`, an authenticator app (whose codes are never asked for: staff need a second factor
 * for the console) and a session made with it, for a day. Seeding again renews the session.
 */
export async function seedStaff(db: Queryable, person: SeededPerson, role: StaffRole): Promise<void> {
  const [account] = await db.query<{ id: string }>(
    `INSERT INTO accounts (name, email, phone, password_hash, language, verified_at, role)
     VALUES ($1, $2, $3, 'not-a-password-hash', 'en', now(), $4)
     ON CONFLICT (email) DO UPDATE SET role = $4, last_active_at = now() RETURNING id`,
    [person.name, person.email, person.phone, role],
  );
  await db.query(
    `INSERT INTO account_totp (account_id, secret, confirmed_at) VALUES ($1, 'not-a-sealed-secret', now())
     ON CONFLICT (account_id) DO NOTHING`,
    [account?.id],
  );
  await db.query(
    `INSERT INTO sessions (token_hash, account_id, expires_at, factors) VALUES ($1, $2, now() + interval '1 day', '{password,totp}')
     ON CONFLICT (token_hash) DO UPDATE SET expires_at = excluded.expires_at, last_seen_at = now()`,
    [createHash('sha256').update(person.sessionToken).digest('base64url'), account?.id],
  );
}
