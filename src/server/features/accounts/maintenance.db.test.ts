import { expect, it } from 'vitest';
import { RETENTION } from '#common/retention.ts';
import { describeOnDatabases } from '#tests/support/databases.ts';
import { pruneAccounts } from './maintenance.ts';

describeOnDatabases('pruning', (db) => {
  async function account(email: string, createdDaysAgo: number, verified: boolean) {
    const [row] = await db().query<{ id: string }>(
      `INSERT INTO accounts (name, email, phone, password_hash, language, verified_at, created_at)
         VALUES ('A', $1, $1, 'hash', 'en', CASE WHEN $3 THEN now() END, now() - $2::integer * interval '1 day')
         RETURNING id`,
      [email, createdDaysAgo, verified],
    );
    return row?.id ?? '';
  }

  it('removes what lapsed, and accounts unused past their retention, and keeps what is still in use', async () => {
    const stale = await account('stale@example.com', RETENTION.unverifiedAccountDays + 1, false);
    await account('fresh@example.com', RETENTION.unverifiedAccountDays - 1, false);
    const member = await account('member@example.com', 400, true);
    await db().query(
      `INSERT INTO sessions (token_hash, account_id, expires_at) VALUES
           ('ended', $1, now() - interval '1 minute'), ('open', $1, now() + interval '1 day')`,
      [member],
    );
    await db().query(
      `INSERT INTO account_codes (account_id, purpose, code_hash, expires_at) VALUES
           ($1, 'verify', 'h', now() - interval '1 minute'), ($2, 'reset', 'h', now() + interval '5 minutes')`,
      [stale, member],
    );
    const unused = await account('unused@example.com', RETENTION.inactiveAccountDays + 30, true);
    await db().query(
      `UPDATE accounts SET last_active_at = now() - ($2::integer + 1) * interval '1 day' WHERE id = $1`,
      [unused, RETENTION.inactiveAccountDays],
    );

    await pruneAccounts(db());

    expect(await db().query('SELECT email FROM accounts ORDER BY email')).toEqual([
      { email: 'fresh@example.com' },
      { email: 'member@example.com' },
    ]);
    expect(await db().query('SELECT token_hash FROM sessions')).toEqual([{ token_hash: 'open' }]);
    expect(await db().query('SELECT purpose FROM account_codes')).toEqual([{ purpose: 'reset' }]);
  });
});
