import { expect, it, vi } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { ACCOUNT_SETTINGS_API, DATA_COPIES_PER_DAY, type DataExportAnswer } from '#common/account-settings-api.ts';
import { describeApi } from '#tests/support/api.ts';
import { ACCOUNT_TABLE_READERS } from './data-export.ts';

/** Every table of the database with a column that names an account. */
const tablesNamingAccounts = async (db: { query: <T>(sql: string) => Promise<T[]> }) =>
  (
    await db.query<{ name: string }>(
      `SELECT DISTINCT table_name AS name FROM information_schema.columns
       WHERE table_schema = current_schema() AND column_name = 'account_id' ORDER BY table_name`,
    )
  ).map((row) => row.name);

describeApi('the account page: a copy of the account’s data', (api) => {
  it('reads every table that names an account (a new one must be added to the copy)', async () => {
    const tables = await tablesNamingAccounts(api.db());
    expect(tables.length).toBeGreaterThan(5);
    expect(Object.keys(ACCOUNT_TABLE_READERS).sort()).toEqual(tables);
  });

  it('holds a row of every such table, and no secret or hash from any of them', async () => {
    const { client, person } = await api.member({ language: 'fr' });
    const db = api.db();
    // The mail with the registration code reaches the test's mail server before its job is done
    // with: wait for that, so that the only mail queued for the account is the one put there below.
    await vi.waitFor(
      async () =>
        expect(
          await db.query(`SELECT 1 FROM jobs WHERE kind = 'mail.send' AND payload->>'to' = $1`, [person.email]),
        ).toEqual([]),
      { timeout: 5_000 },
    );
    const [{ id } = { id: '' }] = await db.query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [
      person.email,
    ]);
    // One row in each table that names accounts, with recognisable secrets where the table keeps any.
    await db.query(
      `INSERT INTO account_codes (account_id, purpose, code_hash, expires_at) VALUES ($1, 'reset', 'secret-code-hash', now() + interval '1 hour')`,
      [id],
    );
    await db.query(`INSERT INTO account_totp (account_id, secret) VALUES ($1, 'secret-totp-sealed')`, [id]);
    await db.query(`INSERT INTO recovery_codes (account_id, code_hash) VALUES ($1, 'secret-recovery-hash')`, [id]);
    await db.query(
      `INSERT INTO trusted_browsers (token_hash, account_id, label, expires_at) VALUES ('secret-trust-hash', $1, 'Firefox, Linux', now() + interval '1 day')`,
      [id],
    );
    await db.query(
      `INSERT INTO passkeys (account_id, credential_id, public_key, name) VALUES ($1, 'secret-credential-id', 'secret-public-key', 'Laptop')`,
      [id],
    );
    await db.query(
      `INSERT INTO account_identities (account_id, issuer, subject, email) VALUES ($1, 'https://id.example.com', 'subject-1', 'ada@id.example.com')`,
      [id],
    );
    await db.query(`INSERT INTO chat_operator_settings (account_id, sound) VALUES ($1, true)`, [id]);
    await db.query(
      `INSERT INTO pending_sign_ins (token_hash, account_id, expires_at) VALUES ('secret-pending-hash', $1, now() + interval '5 minutes')`,
      [id],
    );
    await db.query(
      `INSERT INTO email_changes (account_id, new_email, code_hash, expires_at) VALUES ($1, 'next@example.com', 'secret-change-hash', now() + interval '10 minutes')`,
      [id],
    );
    await db.query(
      `INSERT INTO email_change_undos (token_hash, account_id, old_email, new_email, expires_at) VALUES ('secret-undo-hash', $1, 'before@example.com', $2, now() + interval '7 days')`,
      [id, person.email],
    );
    const [message] = await db.query<{ id: string }>(
      `INSERT INTO contact_messages (language, name, email, subject, body, account_id) VALUES ('fr', $1, $2, 'question', 'Bonjour, une question.', $3) RETURNING id`,
      [person.name, person.email, id],
    );
    await db.query(`INSERT INTO contact_replies (message_id, body) VALUES ($1, 'Voici la réponse.')`, [message?.id]);
    const [conversation] = await db.query<{ id: string }>(
      `INSERT INTO chat_conversations (visitor_token_hash, account_id, client_hash, language, page) VALUES ('secret-chat-hash', $1, 'secret-client-hash', 'fr', '/fr') RETURNING id`,
      [id],
    );
    await db.query(
      `INSERT INTO chat_messages (conversation_id, author, body, client_message_id) VALUES ($1, 'visitor', 'Un mot dans le chat', 'm1')`,
      [conversation?.id],
    );
    await db.query(`INSERT INTO chat_presence (stream_id, account_id) VALUES (gen_random_uuid(), $1)`, [id]);
    await db.query(`INSERT INTO staff_invitations (account_id) VALUES ($1)`, [id]);
    await db.query(
      `INSERT INTO analytics_mail_settings (account_id, report, alert_multiple) VALUES ($1, 'weekly', 3)`,
      [id],
    );
    await db.query(
      `INSERT INTO analytics_mails_sent (account_id, kind, period, day) VALUES ($1, 'weekly', '2026-11-16', '2026-11-23')`,
      [id],
    );
    await db.query(`INSERT INTO jobs (kind, payload, run_at) VALUES ('mail.send', $1, now() + interval '1 day')`, [
      {
        to: person.email,
        subject: 'Un courrier en attente',
        text: 'secret-mail-body',
        html: '<p>secret-mail-body</p>',
      },
    ]);
    await db.query(
      `INSERT INTO mail_outbox (recipient, subject, text_body, html_body) VALUES ($1, 'Un courrier gardé', 'secret-outbox-body', 'secret-outbox-body')`,
      [person.email],
    );
    await client.post(ACCOUNT_API.login, { email: person.email, password: person.password });
    client.cookies.set('consent', 'granted');

    const answer = await client.post(ACCOUNT_SETTINGS_API.dataExport, {});
    expect(answer.status).toBe(200);
    const { fileName, data, html } = answer.body as unknown as DataExportAnswer;
    expect(fileName).toMatch(/^[\w.-]+-my-data-\d{4}-\d{2}-\d{2}$/);

    for (const { section } of Object.values(ACCOUNT_TABLE_READERS)) {
      expect(data[section], section).toBeInstanceOf(Array);
      expect((data[section] as unknown[]).length, section).toBeGreaterThan(0);
    }
    expect(data.profile).toMatchObject({ name: person.name, email: person.email, language: 'fr', role: 'member' });
    expect(data.consent).toEqual({ analytics: 'granted', keptIn: 'browser' });
    expect(data.contactMessages).toMatchObject([
      { message: 'Bonjour, une question.', replies: [{ reply: 'Voici la réponse.' }] },
    ]);
    expect(data.chatConversations).toMatchObject([
      { messages: [{ author: 'visitor', message: 'Un mot dans le chat' }] },
    ]);
    expect(data.mailQueued).toMatchObject([{ subject: 'Un courrier en attente' }]);
    expect(data.mailKept).toMatchObject([{ subject: 'Un courrier gardé' }]);

    // No stored secret or hash leaves, wherever it sits: every column of these tables whose name
    // says hash or secret, read from the database, and the password hash.
    const secretColumns = await db.query<{ table: string; column: string }>(
      `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
       WHERE table_schema = current_schema() AND (column_name LIKE '%hash%' OR column_name LIKE '%secret%')`,
    );
    const secrets: string[] = [];
    for (const { table, column } of secretColumns) {
      const owner = table === 'accounts' ? 'id' : 'account_id';
      const hasOwner = await db.query(
        `SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2`,
        [table, owner],
      );
      if (hasOwner.length === 0) continue;
      const rows = await db.query<{ value: string }>(
        `SELECT ${column}::text AS value FROM ${table} WHERE ${owner} = $1`,
        [id],
      );
      secrets.push(...rows.map((row) => row.value));
    }
    expect(secrets.length).toBeGreaterThan(8);
    const file = JSON.stringify(answer.body);
    // A passkey's key and credential id are named neither: they stay out too, its name goes.
    expect(data.passkeys).toMatchObject([{ name: 'Laptop' }]);
    expect(data.signInServices).toMatchObject([{ issuer: 'https://id.example.com', email: 'ada@id.example.com' }]);
    for (const secret of [
      ...secrets,
      'secret-mail-body',
      'secret-outbox-body',
      'secret-public-key',
      'secret-credential-id',
    ]) {
      expect(file, secret).not.toContain(secret);
    }

    // The page to read, in the account's language.
    expect(html).toMatch(/^<!doctype html>\n<html lang="fr">/);
    expect(html).toContain('<h1>Vos données sur Your Company</h1>');
    expect(html).toContain('Messages envoyés par le formulaire de contact');
    expect(html).toContain('Voici la réponse.');
    expect(html).toContain('autorisées');
  });

  it('allows a few copies a day, and none without a session', async () => {
    const { client } = await api.member();
    for (let i = 0; i < DATA_COPIES_PER_DAY; i++) {
      expect((await client.post(ACCOUNT_SETTINGS_API.dataExport, {})).status).toBe(200);
    }
    const refused = await client.post(ACCOUNT_SETTINGS_API.dataExport, {});
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'TOO_MANY_REQUESTS' } } });
    const wait = Number(refused.headers.get('Retry-After'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(24 * 60 * 60);

    expect((await api.client().post(ACCOUNT_SETTINGS_API.dataExport, {})).body).toEqual({
      error: { code: 'UNAUTHORIZED' },
    });
    for (const body of [[], 'text', 42]) {
      const answer = await api.client().post(ACCOUNT_SETTINGS_API.dataExport, body);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
  });
});
