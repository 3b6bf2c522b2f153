import { expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { ACCOUNT_SETTINGS_API } from '#common/account-settings-api.ts';
import { describeApi } from '#tests/support/api.ts';
import { SETTINGS_LIMITS } from './settings-limits.ts';

describeApi('the account page: changing the password', (api) => {
  it('takes the current password, ends every other session and mails the owner in the account’s language', async () => {
    const { client, person } = await api.member({ language: 'de' });
    const others = [api.client(), api.client()];
    for (const other of others) await other.post(ACCOUNT_API.login, { email: person.email, password: person.password });
    const mailsBefore = api.mail().mails.filter((mail) => mail.to.includes(person.email)).length;

    const answer = await client.post(ACCOUNT_SETTINGS_API.changePassword, {
      currentPassword: person.password,
      newPassword: 'a brand new passphrase',
    });
    expect(answer).toMatchObject({ status: 200, body: { ended: 2 } });
    for (const other of others) expect((await other.get(ACCOUNT_API.account)).status).toBe(401);
    expect((await client.get(ACCOUNT_API.account)).status).toBe(200);

    const fresh = api.client();
    expect((await fresh.post(ACCOUNT_API.login, { email: person.email, password: person.password })).status).toBe(401);
    expect(
      (await fresh.post(ACCOUNT_API.login, { email: person.email, password: 'a brand new passphrase' })).status,
    ).toBe(200);

    const mail = await api.mail().waitFor(person.email, mailsBefore);
    expect(mail.subject).toBe('Das Passwort Ihres Kontos bei Your Company wurde geändert');
    expect(mail.text).toContain('/de/forgot-password');
    expect(mail.text).not.toContain('a brand new passphrase');
  });

  it('refuses a wrong current password under its field, and a new one that breaks the rules', async () => {
    const { client, person } = await api.member();
    expect(
      await client.post(ACCOUNT_SETTINGS_API.changePassword, {
        currentPassword: 'not the password',
        newPassword: 'another good passphrase',
      }),
    ).toMatchObject({
      status: 403,
      body: { error: { code: 'AUTHENTICATION_FAILED', fields: { currentPassword: 'AUTHENTICATION_FAILED' } } },
    });
    expect(
      await client.post(ACCOUNT_SETTINGS_API.changePassword, {
        currentPassword: person.password,
        newPassword: 'short',
      }),
    ).toMatchObject({ status: 400, body: { error: { fields: { newPassword: 'INVALID_PASSWORD' } } } });
    expect(
      await client.post(ACCOUNT_SETTINGS_API.changePassword, {
        currentPassword: person.password,
        newPassword: 'Password123',
      }),
    ).toMatchObject({
      status: 400,
      body: { error: { code: 'PASSWORD_TOO_COMMON', fields: { newPassword: 'PASSWORD_TOO_COMMON' } } },
    });
    for (const body of [{}, [], 'text', { currentPassword: 1, newPassword: 2 }, { currentPassword: person.password }]) {
      const answer = await client.post(ACCOUNT_SETTINGS_API.changePassword, body);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body).toMatchObject({ error: { code: expect.any(String) } });
    }
    expect((await api.client().post(ACCOUNT_SETTINGS_API.changePassword, {})).status).toBe(401);
    // Nothing changed: the password still works.
    expect(
      (await api.client().post(ACCOUNT_API.login, { email: person.email, password: person.password })).status,
    ).toBe(200);
  });

  it('limits password tries per account', async () => {
    const { client } = await api.member();
    const tries = SETTINGS_LIMITS.passwordChangePerAccount.hits;
    for (let i = 0; i < tries; i++) {
      const answer = await client.post(ACCOUNT_SETTINGS_API.changePassword, {
        currentPassword: `wrong ${i}`,
        newPassword: 'another good passphrase',
      });
      expect(answer.status).toBe(403);
    }
    const limited = await client.post(ACCOUNT_SETTINGS_API.changePassword, {
      currentPassword: 'wrong again',
      newPassword: 'another good passphrase',
    });
    expect(limited).toMatchObject({ status: 429, body: { error: { code: 'TOO_MANY_REQUESTS' } } });
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
  });
});
