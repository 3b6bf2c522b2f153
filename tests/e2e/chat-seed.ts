// Before a chat test site starts (playwright.config.ts): its embedded database gets an operator
// with a session the tests sign in with, so that each chat test starts signed in without a trip
// through the sign-in form (the console tests take that trip, with staff made by an admin).
import { createHash } from 'node:crypto';
import { openDatabase } from '#server/platform/db/database.ts';
import { CHAT_ADMIN, CHAT_OPERATOR } from './settings.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('Usage: node tests/e2e/chat-seed.ts <data dir>');
const db = await openDatabase({ dataDir });
/** A staff member with a second factor and a session the tests sign in with. */
async function seed(person: typeof CHAT_OPERATOR, role: 'operator' | 'admin') {
  const [account] = await db.query<{ id: string }>(
    `INSERT INTO accounts (name, email, phone, password_hash, language, verified_at, role)
     VALUES ($1, $2, $3, 'not-a-password-hash', 'en', now(), $4)
     ON CONFLICT (email) DO UPDATE SET role = $4, last_active_at = now() RETURNING id`,
    [person.name, person.email, person.phone, role],
  );
  // Staff need a second factor for the console: an authenticator app (whose codes are never asked
  // for here) and a session made with it.
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
await seed(CHAT_OPERATOR, 'operator');
await seed(CHAT_ADMIN, 'admin');
await db.close();
