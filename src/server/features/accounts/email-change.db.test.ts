import { expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { ACCOUNT_SETTINGS_API } from '#common/account-settings-api.ts';
import { type ApiSuite, describeApi, type Person, type TestClient } from '#tests/support/api.ts';
import { codeIn, newPerson } from '#tests/support/people.ts';

const mailsTo = (api: ApiSuite, address: string) => api.mail().mails.filter((mail) => mail.to.includes(address)).length;

/** Asks for a change to `email` and returns the code mailed there. */
async function codeFor(api: ApiSuite, client: TestClient, person: Person, email: string) {
  const before = mailsTo(api, email);
  const answer = await client.post(ACCOUNT_SETTINGS_API.emailChangeStart, { email, password: person.password });
  expect(answer).toMatchObject({ status: 202, body: { email } });
  return codeIn((await api.mail().waitFor(email, before)).text);
}

/** The token of the undo link in the mail to the old address. */
const undoTokenIn = (text: string) => {
  const token = /undo-email-change#token=([\w-]+)/.exec(text)?.[1];
  if (!token) throw new Error(`No undo link in:\n${text}`);
  return token;
};

describeApi('the account page: changing the email address', (api) => {
  it('keeps the old address until the code mailed to the new one comes back, then tells the old one', async () => {
    const { client, person } = await api.member({ language: 'fr' });
    const newEmail = newPerson().email;
    const code = await codeFor(api, client, person, newEmail);
    expect((await client.get(ACCOUNT_API.account)).body).toMatchObject({ email: person.email });

    const wrong = code === '000000' ? '111111' : '000000';
    expect(await client.post(ACCOUNT_SETTINGS_API.emailChangeConfirm, { code: wrong })).toMatchObject({
      status: 400,
      body: { error: { code: 'VERIFICATION_FAILED', fields: { code: 'VERIFICATION_FAILED' } } },
    });
    const before = mailsTo(api, person.email);
    expect(await client.post(ACCOUNT_SETTINGS_API.emailChangeConfirm, { code })).toMatchObject({
      status: 200,
      body: { email: newEmail },
    });
    expect((await client.get(ACCOUNT_API.account)).body).toMatchObject({ email: newEmail });
    // The code works once.
    expect((await client.post(ACCOUNT_SETTINGS_API.emailChangeConfirm, { code })).status).toBe(400);

    const notice = await api.mail().waitFor(person.email, before);
    expect(notice.subject).toContain('adresse e-mail');
    expect(notice.text).toContain(newEmail);
    expect(notice.text).toContain('/fr/account/undo-email-change#token=');

    const fresh = api.client();
    expect((await fresh.post(ACCOUNT_API.login, { email: newEmail, password: person.password })).status).toBe(200);
    expect(
      (await api.client().post(ACCOUNT_API.login, { email: person.email, password: person.password })).status,
    ).toBe(401);
  });

  it('is undone from the old address: the address comes back and every session ends, once', async () => {
    const { client, person } = await api.member();
    const other = api.client();
    await other.post(ACCOUNT_API.login, { email: person.email, password: person.password });
    const newEmail = newPerson().email;
    const code = await codeFor(api, client, person, newEmail);
    const before = mailsTo(api, person.email);
    await client.post(ACCOUNT_SETTINGS_API.emailChangeConfirm, { code });
    const token = undoTokenIn((await api.mail().waitFor(person.email, before)).text);

    const undoer = api.client();
    expect((await undoer.post(ACCOUNT_SETTINGS_API.emailChangeUndo, { token })).status).toBe(200);
    for (const browser of [client, other]) expect((await browser.get(ACCOUNT_API.account)).status).toBe(401);
    const back = api.client();
    expect((await back.post(ACCOUNT_API.login, { email: person.email, password: person.password })).status).toBe(200);
    expect((await back.get(ACCOUNT_API.account)).body).toMatchObject({ email: person.email });
    expect(await undoer.post(ACCOUNT_SETTINGS_API.emailChangeUndo, { token })).toMatchObject({
      status: 400,
      body: { error: { code: 'LINK_EXPIRED' } },
    });
  });

  it('does not undo after the link’s days are over', async () => {
    const { client, person } = await api.member();
    const newEmail = newPerson().email;
    const code = await codeFor(api, client, person, newEmail);
    const before = mailsTo(api, person.email);
    await client.post(ACCOUNT_SETTINGS_API.emailChangeConfirm, { code });
    const token = undoTokenIn((await api.mail().waitFor(person.email, before)).text);
    await api.db().query(
      `UPDATE email_change_undos SET expires_at = statement_timestamp() - interval '1 second'
         WHERE account_id = (SELECT id FROM accounts WHERE email = $1)`,
      [newEmail],
    );
    expect((await api.client().post(ACCOUNT_SETTINGS_API.emailChangeUndo, { token })).body).toEqual({
      error: { code: 'LINK_EXPIRED' },
    });
    expect((await client.get(ACCOUNT_API.account)).body).toMatchObject({ email: newEmail });
  });

  it('answers a taken address as registration does, and its own address as unchanged', async () => {
    const { client, person } = await api.member();
    const other = await api.member();
    expect(
      await client.post(ACCOUNT_SETTINGS_API.emailChangeStart, {
        email: other.person.email,
        password: person.password,
      }),
    ).toMatchObject({
      status: 409,
      body: { error: { code: 'EMAIL_ALREADY_EXISTS', fields: { email: 'EMAIL_ALREADY_EXISTS' } } },
    });
    expect(
      await client.post(ACCOUNT_SETTINGS_API.emailChangeStart, {
        email: person.email.toUpperCase(),
        password: person.password,
      }),
    ).toMatchObject({ status: 400, body: { error: { code: 'EMAIL_UNCHANGED' } } });
    // Only with the password: a session left open does not tell which addresses have accounts.
    expect(
      await client.post(ACCOUNT_SETTINGS_API.emailChangeStart, { email: newPerson().email, password: 'wrong one' }),
    ).toMatchObject({ status: 403, body: { error: { fields: { password: 'AUTHENTICATION_FAILED' } } } });
  });

  it('refuses the code when someone registered the new address meanwhile', async () => {
    const { client, person } = await api.member();
    const newEmail = newPerson().email;
    const code = await codeFor(api, client, person, newEmail);
    await api.registered({ email: newEmail });
    expect(await client.post(ACCOUNT_SETTINGS_API.emailChangeConfirm, { code })).toMatchObject({
      status: 409,
      body: { error: { code: 'EMAIL_ALREADY_EXISTS' } },
    });
    expect((await client.get(ACCOUNT_API.account)).body).toMatchObject({ email: person.email });
  });

  it('binds a code to its address: asking for another address makes the first code useless', async () => {
    const { client, person } = await api.member();
    const first = newPerson().email;
    const firstCode = await codeFor(api, client, person, first);
    const second = newPerson().email;
    const secondCode = await codeFor(api, client, person, second);
    if (firstCode !== secondCode) {
      expect((await client.post(ACCOUNT_SETTINGS_API.emailChangeConfirm, { code: firstCode })).status).toBe(400);
    }
    expect((await client.post(ACCOUNT_SETTINGS_API.emailChangeConfirm, { code: secondCode })).body).toEqual({
      email: second,
    });
  });

  it('answers junk with a 4xx and an error code, and limits mail to one address', async () => {
    const { client, person } = await api.member();
    const cases: [string, unknown][] = [
      [ACCOUNT_SETTINGS_API.emailChangeStart, {}],
      [ACCOUNT_SETTINGS_API.emailChangeStart, { email: 'no-at-sign', password: person.password }],
      [ACCOUNT_SETTINGS_API.emailChangeStart, { email: ['a@example.com'], password: person.password }],
      [ACCOUNT_SETTINGS_API.emailChangeStart, 'text'],
      [ACCOUNT_SETTINGS_API.emailChangeConfirm, { code: 'abcdef' }],
      [ACCOUNT_SETTINGS_API.emailChangeConfirm, { code: 123456 }],
      [ACCOUNT_SETTINGS_API.emailChangeConfirm, []],
      [ACCOUNT_SETTINGS_API.emailChangeUndo, {}],
      [ACCOUNT_SETTINGS_API.emailChangeUndo, { token: 'x'.repeat(500) }],
      [ACCOUNT_SETTINGS_API.emailChangeUndo, { token: 'not-a-token' }],
      [ACCOUNT_SETTINGS_API.emailChangeUndo, { token: { $ne: null } }],
    ];
    for (const [path, body] of cases) {
      const answer = await client.post(path, body);
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body).toMatchObject({ error: { code: expect.any(String) } });
    }
    // No code waits: a guess is simply wrong.
    expect((await client.post(ACCOUNT_SETTINGS_API.emailChangeConfirm, { code: '123456' })).status).toBe(400);
    expect((await api.client().post(ACCOUNT_SETTINGS_API.emailChangeStart, {})).status).toBe(401);

    const target = newPerson().email;
    await codeFor(api, client, person, target);
    // A second mail to the same address within half a minute is refused, as for every mailed code.
    expect(
      await client.post(ACCOUNT_SETTINGS_API.emailChangeStart, { email: target, password: person.password }),
    ).toMatchObject({ status: 429, body: { error: { code: 'TOO_MANY_REQUESTS' } } });
  });
});
