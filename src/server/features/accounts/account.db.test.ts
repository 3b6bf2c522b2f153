import { expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { outboxMailer } from '#server/platform/mail/mailer.ts';
import { outboxFor } from '#server/platform/mail/outbox.ts';
import { accountPerson, describeApi } from '#tests/support/api.ts';
import { captureLog } from '#tests/support/log.ts';
import { codeIn } from '#tests/support/people.ts';
import { LIMITS } from './limits.ts';

describeApi('the account', (api) => {
  const rowsFor = async (email: string) => {
    const [row] = await api.db().query<{ accounts: number; sessions: number; codes: number; outbox: number }>(
      `SELECT
           (SELECT count(*) FROM accounts WHERE email = $1)::integer AS accounts,
           (SELECT count(*) FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE a.email = $1)::integer AS sessions,
           (SELECT count(*) FROM account_codes c JOIN accounts a ON a.id = c.account_id WHERE a.email = $1)::integer AS codes,
           (SELECT count(*) FROM mail_outbox WHERE recipient = $1)::integer AS outbox`,
      [email],
    );
    return row;
  };

  it('shows the signed-in member their details, and no one else', async () => {
    const { client, person } = await api.member({ phone: '+39 06 1234 5678' });
    const answer = await client.get(ACCOUNT_API.account);
    expect(answer).toMatchObject({
      status: 200,
      body: { name: person.name, email: person.email, phone: '+390612345678', createdAt: expect.any(String) },
    });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect((await api.client().get(ACCOUNT_API.account)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
  });

  it('signs out everywhere', async () => {
    const { client, person } = await api.member();
    const other = api.client();
    await other.post(ACCOUNT_API.login, { email: person.email, password: person.password });
    expect((await client.post(ACCOUNT_API.signOutEverywhere)).status).toBe(200);
    expect((await other.get(ACCOUNT_API.account)).status).toBe(401);
    expect((await client.get(ACCOUNT_API.account)).status).toBe(401);
    expect((await rowsFor(person.email))?.sessions).toBe(0);
  });

  it('deletes the account with its data after the password is given again', async () => {
    const { client, person } = await api.member();
    await api.client().post(ACCOUNT_API.forgotPassword, { email: person.email });
    await api.mail().waitFor(person.email, 1);

    const refused = await client.post(ACCOUNT_API.deleteAccount, { password: 'not my password' });
    expect(refused).toMatchObject({
      status: 403,
      body: { error: { code: 'AUTHENTICATION_FAILED', fields: { password: 'AUTHENTICATION_FAILED' } } },
    });
    expect((await rowsFor(person.email))?.accounts).toBe(1);

    expect((await client.post(ACCOUNT_API.deleteAccount, { password: person.password })).status).toBe(200);
    expect(await rowsFor(person.email)).toEqual({ accounts: 0, sessions: 0, codes: 0, outbox: 0 });
    expect(client.cookies.has('__Host-session')).toBe(false);
    const login = await api.client().post(ACCOUNT_API.login, { email: person.email, password: person.password });
    expect(login.body).toEqual({ error: { code: 'INVALID_CREDENTIALS' } });
    // The address and the number are free again.
    expect((await api.client().post(ACCOUNT_API.register, person)).status).toBe(201);
  });

  it('deletes mail kept in the outbox for that address too', async () => {
    const log = captureLog();
    const restore = api.mailVia(outboxMailer(api.db()));
    const outbox = api.client();
    const person = accountPerson();
    await outbox.post(ACCOUNT_API.register, person);
    await api.runJobs();
    restore();
    log.restore();
    const [mail] = await outboxFor(api.db(), person.email);
    await outbox.post(ACCOUNT_API.verify, { email: person.email, code: codeIn(mail?.text ?? '') });
    expect((await rowsFor(person.email))?.outbox).toBe(1);
    expect((await outbox.post(ACCOUNT_API.deleteAccount, { password: person.password })).status).toBe(200);
    expect(await rowsFor(person.email)).toEqual({ accounts: 0, sessions: 0, codes: 0, outbox: 0 });
  });

  it('needs a session to delete, and limits password guesses', async () => {
    expect((await api.client().post(ACCOUNT_API.deleteAccount, { password: 'x' })).status).toBe(401);
    const { client } = await api.member();
    for (let n = 0; n < LIMITS.deletePerAccount.hits; n++) {
      expect((await client.post(ACCOUNT_API.deleteAccount, { password: `guess ${n}` })).status).toBe(403);
    }
    expect((await client.post(ACCOUNT_API.deleteAccount, { password: 'guess' })).status).toBe(429);
  });
});
