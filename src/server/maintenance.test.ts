import { expect, it } from 'vitest';
import { describeOnDatabases } from './db/describe-databases.ts';
import { pruneLapsed, UNVERIFIED_ACCOUNT_DAYS } from './maintenance.ts';

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

  it('removes what lapsed and keeps what is still in use', async () => {
    const stale = await account('stale@example.com', UNVERIFIED_ACCOUNT_DAYS + 1, false);
    await account('fresh@example.com', UNVERIFIED_ACCOUNT_DAYS - 1, false);
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
    await db().query(
      `INSERT INTO mail_outbox (recipient, subject, text_body, html_body, created_at) VALUES
           ('old@example.com', 's', 't', 'h', now() - interval '8 days'), ('new@example.com', 's', 't', 'h', now())`,
    );

    await pruneLapsed(db());

    expect(await db().query('SELECT email FROM accounts ORDER BY email')).toEqual([
      { email: 'fresh@example.com' },
      { email: 'member@example.com' },
    ]);
    expect(await db().query('SELECT token_hash FROM sessions')).toEqual([{ token_hash: 'open' }]);
    expect(await db().query('SELECT purpose FROM account_codes')).toEqual([{ purpose: 'reset' }]);
    expect(await db().query('SELECT recipient FROM mail_outbox')).toEqual([{ recipient: 'new@example.com' }]);
  });
});
