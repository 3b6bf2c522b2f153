import { expect, it } from 'vitest';
import { ACCOUNT_API, type LoginAnswer } from '#common/account-api.ts';
import { ERROR_CODES } from '#common/error-codes.ts';
import {
  type AddOptionsAnswer,
  PASSKEY_API,
  PASSKEYS_PER_ACCOUNT,
  type PasskeyAddedAnswer,
  type PasskeysAnswer,
  type SignInOptionsAnswer,
} from '#common/passkey-api.ts';
import { STAFF_API } from '#common/staff-api.ts';
import { type ApiSuite, describeApi } from '#tests/support/api.ts';
import { addThroughApi, authenticator, memberWithPasskey, signInWith, site } from '#tests/support/passkey-client.ts';
import { createSoftAuthenticator } from '#tests/support/soft-authenticator.ts';

const factorsOf = async (api: ApiSuite, email: string) =>
  (
    await api
      .db()
      .query<{ factors: string[] }>(
        'SELECT factors FROM sessions WHERE account_id = (SELECT id FROM accounts WHERE email = $1) ORDER BY created_at',
        [email],
      )
  ).map((row) => row.factors);

describeApi('passkeys', (api) => {
  it('adds a passkey with the password: other sessions end, this one counts two factors, recovery codes come once, the owner is mailed', async () => {
    const { client, person } = await api.member();
    const other = api.client();
    await other.post(ACCOUNT_API.login, { email: person.email, password: person.password });
    expect((await client.get(PASSKEY_API.list)).body).toEqual({ passkeys: [] });

    const options = await client.post(PASSKEY_API.addOptions, {});
    expect(options.status).toBe(201);
    const { ceremony, options: creation } = options.body as unknown as AddOptionsAnswer;
    expect(creation.rp).toEqual({ id: 'localhost', name: site.brand.siteName });
    expect(creation.user.name).toBe(person.email);
    expect(creation.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    const made = authenticator.create(creation);

    expect(
      await client.post(PASSKEY_API.add, { ceremony, name: 'Laptop', password: 'not it', response: made.response }),
    ).toMatchObject({ status: 403, body: { error: { code: 'AUTHENTICATION_FAILED' } } });
    const added = await client.post(PASSKEY_API.add, {
      ceremony,
      name: ' Laptop ',
      password: person.password,
      response: made.response,
    });
    expect(added.status).toBe(201);
    const body = added.body as unknown as PasskeyAddedAnswer;
    expect(body.passkey).toMatchObject({ name: 'Laptop', lastUsedAt: null });
    expect(body.recoveryCodes).toHaveLength(10);
    // The challenge was taken: the same answer again finds none.
    expect(
      await client.post(PASSKEY_API.add, {
        ceremony,
        name: 'Again',
        password: person.password,
        response: made.response,
      }),
    ).toMatchObject({ status: 401, body: { error: { code: 'PASSKEY_EXPIRED' } } });

    expect((await other.get(ACCOUNT_API.account)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
    expect(await factorsOf(api, person.email)).toEqual([['email-code', 'passkey']]);
    expect((await client.get(PASSKEY_API.list)).body).toEqual({ passkeys: [body.passkey] });
    const mail = await api.mail().waitFor(person.email, 1);
    expect(mail.subject).toBe(`A passkey was added to your ${site.brand.siteName} account`);
    expect(mail.text).toContain('“Laptop”');
    expect(mail.text).toContain('If it was not you');

    // A second passkey brings no new codes: the first ones still hold.
    const second = await addThroughApi(client, person.password, 'Phone');
    expect((second.added.body as unknown as PasskeyAddedAnswer).recoveryCodes).toBeNull();
  });

  it('signs in with a passkey as two factors, records its use, and takes each challenge and signature once', async () => {
    const { person, passkey, answer } = await memberWithPasskey(api);
    const { client, answer: signedIn, options, response } = await signInWith(api, passkey);
    expect(signedIn).toMatchObject({ status: 200, body: { status: 'signed-in', account: { name: person.name } } });
    expect((await client.get(ACCOUNT_API.account)).status).toBe(200);
    expect((await factorsOf(api, person.email)).at(-1)).toEqual(['passkey']);
    const listed = (await client.get(PASSKEY_API.list)).body as unknown as PasskeysAnswer;
    expect(listed.passkeys[0]?.id).toBe(answer.passkey.id);
    expect(listed.passkeys[0]?.lastUsedAt).not.toBeNull();

    // The same answer to the same challenge: the challenge is gone.
    const again = api.client();
    expect(await again.post(PASSKEY_API.signIn, { ceremony: options.ceremony, response })).toMatchObject({
      status: 401,
      body: { error: { code: 'PASSKEY_EXPIRED' } },
    });
    // The same signature for a new challenge: the challenge in it is the old one.
    const fresh = (await again.post(PASSKEY_API.signInOptions, {})).body as unknown as SignInOptionsAnswer;
    expect(await again.post(PASSKEY_API.signIn, { ceremony: fresh.ceremony, response })).toMatchObject({
      status: 401,
      body: { error: { code: 'PASSKEY_FAILED' } },
    });
    // A signature whose counter went back (a cloned authenticator) is refused.
    passkey.counter = 0;
    expect((await signInWith(api, passkey)).answer).toMatchObject({
      status: 401,
      body: { error: { code: 'PASSKEY_FAILED' } },
    });
    passkey.counter = 10;
    expect((await signInWith(api, passkey)).answer.status).toBe(200);

    // A password sign-in now asks for the second factor, and says a passkey can give it.
    const password = await api.client().post(ACCOUNT_API.login, { email: person.email, password: person.password });
    expect(password.body as unknown as LoginAnswer).toMatchObject({ status: 'second-factor-required', passkey: true });
  });

  it('refuses an answer without user verification, from another site, for another challenge, or of an unknown passkey', async () => {
    const { passkey } = await memberWithPasskey(api);
    const client = api.client();
    const ask = async () => (await client.post(PASSKEY_API.signInOptions, {})).body as unknown as SignInOptionsAnswer;
    const refused = { status: 401, body: { error: { code: 'PASSKEY_FAILED' } } };

    const first = await ask();
    const presentOnly = authenticator.assert(passkey, first.options, authenticator.userPresentOnly);
    expect(await client.post(PASSKEY_API.signIn, { ceremony: first.ceremony, response: presentOnly })).toMatchObject(
      refused,
    );

    const second = await ask();
    const elsewhere = createSoftAuthenticator('https://evil.example').assert(passkey, second.options);
    expect(await client.post(PASSKEY_API.signIn, { ceremony: second.ceremony, response: elsewhere })).toMatchObject(
      refused,
    );

    const third = await ask();
    const otherChallenge = authenticator.assert(passkey, { ...third.options, challenge: 'AAAA' });
    expect(await client.post(PASSKEY_API.signIn, { ceremony: third.ceremony, response: otherChallenge })).toMatchObject(
      refused,
    );

    const fourth = await ask();
    const unknown = { ...passkey, credentialId: Buffer.alloc(32, 9) };
    expect(
      await client.post(PASSKEY_API.signIn, {
        ceremony: fourth.ceremony,
        response: authenticator.assert(unknown, fourth.options),
      }),
    ).toMatchObject(refused);
    expect((await client.get(ACCOUNT_API.account)).status).toBe(401);
  });

  it('binds a challenge to add a passkey to the session that asked, and lets it lapse', async () => {
    const { client, person } = await api.member();
    const options = (await client.post(PASSKEY_API.addOptions, {})).body as unknown as AddOptionsAnswer;
    const made = authenticator.create(options.options);
    // The same account signed in elsewhere cannot answer this session's challenge.
    const other = api.client();
    await other.post(ACCOUNT_API.login, { email: person.email, password: person.password });
    const fromOther = await other.post(PASSKEY_API.add, {
      ceremony: options.ceremony,
      name: 'Stolen',
      password: person.password,
      response: made.response,
    });
    expect(fromOther).toMatchObject({ status: 401, body: { error: { code: 'PASSKEY_EXPIRED' } } });

    // A challenge past its minutes is refused, and the sign-in's as well.
    const late = (await client.post(PASSKEY_API.addOptions, {})).body as unknown as AddOptionsAnswer;
    await api.db().query(`UPDATE passkey_challenges SET expires_at = now() - interval '1 second'`);
    const answer = await client.post(PASSKEY_API.add, {
      ceremony: late.ceremony,
      name: 'Late',
      password: person.password,
      response: authenticator.create(late.options).response,
    });
    expect(answer).toMatchObject({ status: 401, body: { error: { code: 'PASSKEY_EXPIRED' } } });
    expect((await client.get(PASSKEY_API.list)).body).toEqual({ passkeys: [] });
  });

  it('renames and removes with the password; removing ends other sessions, mails the owner, and the last one takes the codes', async () => {
    const { client, person, passkey, answer } = await memberWithPasskey(api);
    const { id } = answer.passkey;
    expect((await client.post(PASSKEY_API.rename, { id, name: 'Work laptop' })).status).toBe(200);
    expect(await client.post(PASSKEY_API.rename, { id, name: 'x'.repeat(61) })).toMatchObject({
      status: 400,
      body: { error: { fields: { name: 'INVALID_PASSKEY_NAME' } } },
    });
    expect(
      (await client.post(PASSKEY_API.rename, { id: '00000000-0000-4000-8000-000000000000', name: 'Mine' })).status,
    ).toBe(404);
    // Another member cannot rename or remove it.
    const stranger = await api.member();
    expect((await stranger.client.post(PASSKEY_API.rename, { id, name: 'Mine' })).status).toBe(404);
    expect((await stranger.client.post(PASSKEY_API.remove, { id, password: stranger.person.password })).status).toBe(
      404,
    );

    const { client: elsewhere } = await signInWith(api, passkey);
    expect((await client.post(PASSKEY_API.remove, { id, password: 'wrong one' })).status).toBe(403);
    expect((await client.post(PASSKEY_API.remove, { id, password: person.password })).status).toBe(200);
    expect((await elsewhere.get(ACCOUNT_API.account)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
    expect((await client.get(PASSKEY_API.list)).body).toEqual({ passkeys: [] });
    expect((await client.get(ACCOUNT_API.secondFactors)).body).toMatchObject({ recoveryCodesLeft: 0 });
    await expect
      .poll(() => api.mail().mails.find((mail) => mail.to.includes(person.email) && mail.subject.includes('removed')))
      .toMatchObject({ text: expect.stringContaining('“Work laptop”') });
    // The passkey no longer signs in, and the password alone does again.
    expect((await signInWith(api, passkey)).answer).toMatchObject({
      status: 401,
      body: { error: { code: 'PASSKEY_FAILED' } },
    });
    const password = await api.client().post(ACCOUNT_API.login, { email: person.email, password: person.password });
    expect((password.body as unknown as LoginAnswer).status).toBe('signed-in');
  });

  it(`holds at most ${PASSKEYS_PER_ACCOUNT} passkeys per account`, async () => {
    const { client, person } = await api.member();
    await api.db().query(
      `INSERT INTO passkeys (account_id, credential_id, public_key, name)
       SELECT id, 'credential-' || n || '-' || id, 'key', 'Key ' || n FROM accounts, generate_series(1, $2) n
       WHERE email = $1`,
      [person.email, PASSKEYS_PER_ACCOUNT],
    );
    expect(await client.post(PASSKEY_API.addOptions, {})).toMatchObject({
      status: 409,
      body: { error: { code: 'PASSKEY_LIMIT' } },
    });
  });

  it('opens the console to staff whose second factor is a passkey, in a session made with it', async () => {
    const { client, person, passkey } = await memberWithPasskey(api);
    await api.db().query(`UPDATE accounts SET role = 'operator' WHERE email = $1`, [person.email]);
    expect((await client.get(STAFF_API.me)).status).toBe(200);
    const { client: bySignIn } = await signInWith(api, passkey);
    expect((await bySignIn.get(STAFF_API.me)).status).toBe(200);
  });

  it('answers junk with a 4xx and an error code, never a 5xx', async () => {
    const { client } = await api.member();
    const signedOut = api.client();
    const credential = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', clientExtensionResults: {} };
    const uuid = '00000000-0000-4000-8000-000000000000';
    const calls: [string, unknown][] = [
      [PASSKEY_API.addOptions, 'null'],
      [PASSKEY_API.add, {}],
      [PASSKEY_API.add, '[1,2'],
      [PASSKEY_API.add, { ceremony: 'x', name: 'A', password: 'x', response: 'nope' }],
      [PASSKEY_API.add, { ceremony: 'x', name: '', password: 'x', response: { ...credential, response: {} } }],
      [
        PASSKEY_API.add,
        {
          ceremony: 'x'.repeat(500),
          name: 'A',
          password: 'x',
          response: { ...credential, response: { clientDataJSON: 'e30', attestationObject: 'AAAA' } },
        },
      ],
      [PASSKEY_API.rename, { id: 'not-an-id', name: 'A' }],
      [PASSKEY_API.rename, { id: uuid, name: 42 }],
      [PASSKEY_API.rename, { id: uuid, name: 'A' }],
      [PASSKEY_API.remove, { id: uuid }],
      [PASSKEY_API.remove, { id: uuid, password: 'wrong' }],
      [PASSKEY_API.signInOptions, 'null'],
      [PASSKEY_API.signIn, {}],
      [PASSKEY_API.signIn, { ceremony: 'nothing', response: { ...credential, type: 'password' } }],
      [PASSKEY_API.signIn, { ceremony: 'nothing', response: { ...credential, response: { signature: 7 } } }],
      [
        PASSKEY_API.signIn,
        {
          ceremony: 'nothing',
          response: { ...credential, response: { clientDataJSON: '%%%', authenticatorData: '', signature: 'AA' } },
        },
      ],
      [
        PASSKEY_API.signIn,
        {
          ceremony: 'nothing',
          response: {
            ...credential,
            id: 'x'.repeat(5000),
            response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
          },
        },
      ],
    ];
    for (const [path, body] of calls) {
      for (const browser of [client, signedOut]) {
        const answer = await browser.post(path, body);
        const what = `${path} ${JSON.stringify(body).slice(0, 120)}`;
        expect(answer.status, what).toBeGreaterThanOrEqual(400);
        expect(answer.status, what).toBeLessThan(500);
        expect(ERROR_CODES, what).toContain((answer.body as { error: { code: string } }).error.code);
      }
    }
    // A real challenge answered with garbage is a failed passkey, not a server error.
    const options = (await signedOut.post(PASSKEY_API.signInOptions, {})).body as unknown as SignInOptionsAnswer;
    const garbage = {
      ...credential,
      response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA', userHandle: 'AAAA' },
    };
    expect(await signedOut.post(PASSKEY_API.signIn, { ceremony: options.ceremony, response: garbage })).toMatchObject({
      status: 401,
      body: { error: { code: 'PASSKEY_FAILED' } },
    });
    const adding = (await client.post(PASSKEY_API.addOptions, {})).body as unknown as AddOptionsAnswer;
    expect(
      (
        await client.post(PASSKEY_API.add, {
          ceremony: adding.ceremony,
          name: 'Junk',
          password: 'x',
          response: { ...credential, response: { clientDataJSON: 'e30', attestationObject: 'AAAA' } },
        })
      ).status,
    ).toBe(403);
    expect((await signedOut.get(PASSKEY_API.list)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
  });
});
