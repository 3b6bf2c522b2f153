import { expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { ACCOUNT_SETTINGS_API } from '#common/account-settings-api.ts';
import { limitKey } from '#server/http/rate-limit.ts';
import { accountPerson, describeApi, TEST_HASHING, TEST_SECRET, TestClient } from '#tests/support/api.ts';
import { codeIn } from '#tests/support/people.ts';
import { LIMITS } from './limits.ts';

describeApi('sign-in and sessions', (api) => {
  const signIn = (client: TestClient, email: string, password: string) =>
    client.post(ACCOUNT_API.login, { email, password });

  it('signs in with email and password, and the header learns the name', async () => {
    const { person } = await api.member();
    const client = api.client();
    const answer = await signIn(client, person.email.toUpperCase(), person.password);
    expect(answer).toMatchObject({ status: 200, body: { status: 'signed-in', account: { name: person.name } } });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await client.get(ACCOUNT_API.session)).toMatchObject({ body: { account: { name: person.name } } });
  });

  it('answers an unknown address exactly like a wrong password', async () => {
    const { person } = await api.member();
    const wrong = await signIn(api.client(), person.email, 'not the password');
    const unknown = await signIn(api.client(), 'nobody@example.com', person.password);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ error: { code: 'INVALID_CREDENTIALS' } });
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.headers.getSetCookie()).toEqual(wrong.headers.getSetCookie());
  });

  it('marks the browser as known to the account at a sign-in, and only at a successful one', async () => {
    const { person } = await api.member();
    const client = api.client();
    const wrong = await signIn(client, person.email, 'not the password');
    expect(wrong.headers.getSetCookie().join('\n')).not.toContain('__Host-device=');
    const answer = await signIn(client, person.email, person.password);
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('__Host-device='));
    expect(cookie).toMatch(/^__Host-device=\d+\.[\w-]+; Max-Age=7776000; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    // It outlives the session: it says the browser was used for the account, not that it is signed in.
    await client.post(ACCOUNT_API.logout, {});
    expect(client.cookies.has('__Host-session')).toBe(false);
    expect(client.cookies.has('__Host-device')).toBe(true);
  });

  it('gives a new session at every sign-in and ends the one the browser had', async () => {
    const { client, person } = await api.member();
    const first = client.cookies.get('__Host-session');
    await signIn(client, person.email, person.password);
    const second = client.cookies.get('__Host-session');
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    const stale = new TestClient(api.app());
    stale.cookies.set('__Host-session', first ?? '');
    expect((await stale.get(ACCOUNT_API.account)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
    expect((await client.get(ACCOUNT_API.account)).status).toBe(200);
  });

  it('sends an unverified account to the validation page, with a fresh code when the old one lapsed', async () => {
    const client = api.client();
    const person = accountPerson();
    await client.post(ACCOUNT_API.register, person);
    await api.mail().waitFor(person.email);

    const answer = await signIn(client, person.email, person.password);
    expect(answer).toMatchObject({ status: 200, body: { status: 'verification-required' } });
    expect(client.cookies.has('__Host-session')).toBe(false);

    await api.age('account_codes', "expires_at = now() - interval '1 second'", person.email);
    await signIn(client, person.email, person.password);
    const code = codeIn((await api.mail().waitFor(person.email, 1)).text);
    expect((await client.post(ACCOUNT_API.verify, { email: person.email, code })).status).toBe(200);

    const wrong = await signIn(api.client(), person.email, 'wrong password');
    expect(wrong.body).toEqual({ error: { code: 'INVALID_CREDENTIALS' } });
  });

  it('mails a fresh code at sign-in only within the mail limits of the address', async () => {
    const { person } = await api.registered();
    const mailsTo = () => api.mail().mails.filter((mail) => mail.to.includes(person.email)).length;
    const afterRegistration = mailsTo();
    // Each try finds its code lapsed, so each would mail a new one were it not for the limits; a
    // new client each time, so only the limits of the address stand in the way.
    for (let n = 0; n < LIMITS.loginPerAccount.hits; n++) {
      await api.age('account_codes', "expires_at = now() - interval '1 second'", person.email);
      const answer = await signIn(api.client(), person.email, person.password);
      expect(answer.body).toEqual({ status: 'verification-required' });
    }
    await api.runJobs();
    const { mailPerAccountBurst: burst, mailPerAccount: hourly } = LIMITS;
    const perMinute = Math.min(hourly.hits, Math.ceil(60 / burst.windowSeconds) * burst.hits);
    const mailed = mailsTo() - afterRegistration;
    expect(mailed).toBeGreaterThanOrEqual(1);
    expect(mailed).toBeLessThanOrEqual(perMinute);
  });

  it('redoes a hash made with weaker parameters at the next sign-in', async () => {
    const { person } = await api.member();
    const stronger = { ...TEST_HASHING, memoryCost: TEST_HASHING.memoryCost * 2 };
    const client = new TestClient(api.app({ settings: { passwordHashing: stronger } }));
    expect((await signIn(client, person.email, person.password)).status).toBe(200);
    const [row] = await api
      .db()
      .query<{ password_hash: string }>('SELECT password_hash FROM accounts WHERE email = $1', [person.email]);
    expect(row?.password_hash).toContain(`m=${stronger.memoryCost},`);
    expect((await signIn(api.client(), person.email, person.password)).status).toBe(200);
  });

  it('limits sign-ins per account whatever the client, with Retry-After', async () => {
    const { person } = await api.member();
    for (let n = 0; n < LIMITS.loginPerAccount.hits; n++) {
      expect((await signIn(api.client(), person.email, 'wrong password')).status).toBe(401);
    }
    const refused = await signIn(api.client(), person.email, person.password);
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'TOO_MANY_REQUESTS' } } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses at once, before counting anything, while the hashing queue is full', async () => {
    const { person } = await api.member();
    const full = api.app({ settings: { hashingLimits: { concurrency: 0, queue: 0, refusalHoldMs: 0 } } });
    const client = new TestClient(full);
    const calls = [
      () => client.post(ACCOUNT_API.login, { email: person.email, password: person.password }),
      () => client.post(ACCOUNT_API.register, accountPerson()),
      () => client.post(ACCOUNT_API.resetPassword, { email: person.email, code: '123456', password: 'new password' }),
    ];
    for (const call of calls) {
      const answer = await call();
      expect(answer).toMatchObject({ status: 503, body: { error: { code: 'TOO_MANY_REQUESTS' } } });
      expect(answer.headers.get('retry-after')).toBe('2');
    }
    // Nothing was counted against the client or the account.
    const counted = await api
      .db()
      .query('SELECT key FROM rate_limits WHERE key = ANY($1)', [
        [
          limitKey(TEST_SECRET, 'loginPerClient', client.address),
          limitKey(TEST_SECRET, 'loginPerAccount', person.email),
          limitKey(TEST_SECRET, 'registerPerClient', client.address),
          limitKey(TEST_SECRET, 'resetPerClient', client.address),
        ],
      ]);
    expect(counted).toEqual([]);
  });

  it('lets a new browser sign in to an account that exists, and its owner confirm with the password, while sign-ins for made-up addresses fill the queue', async () => {
    const { person } = await api.member();
    // Slow enough hashing that the queue stays full while the test looks; the member's hash was made
    // with the tests' weaker parameters, so its sign-in also redoes it, in the same lane.
    const flooded = api.app({
      settings: {
        passwordHashing: { memoryCost: 65_536, timeCost: 3, parallelism: 1 },
        hashingLimits: { concurrency: 1, queue: 1, refusalHoldMs: 0 },
      },
    });
    const guess = (n: number) =>
      new TestClient(flooded).post(ACCOUNT_API.login, { email: `flood-${n}@example.com`, password: 'a guess' });
    expect((await guess(0)).status).toBe(401);
    // Three guesses at once: one hashing, one waiting, and the lane for addresses no account has is
    // full once the third is refused (at once: the refusal is not held here).
    let n = 1;
    const fill = async () => {
      for (let round = 0; round < 10; round++) {
        const flood = [guess(n++), guess(n++), guess(n++)];
        if ((await Promise.race(flood)).status === 503) return flood;
        await Promise.all(flood);
      }
      throw new Error('The guesses never filled the queue');
    };
    const answered = async (flood: ReturnType<typeof guess>[]) =>
      (await Promise.all(flood)).map((answer) => answer.status).sort();
    let flood = await fill();
    const owner = new TestClient(flooded);
    const signedIn = await signIn(owner, person.email, person.password);
    expect(signedIn).toMatchObject({ status: 200, body: { status: 'signed-in' } });
    expect(await answered(flood)).toEqual([401, 401, 503]);

    flood = await fill();
    const changed = await owner.post(ACCOUNT_SETTINGS_API.changePassword, {
      currentPassword: person.password,
      newPassword: 'a new and longer passphrase',
    });
    expect(changed.status).toBe(200);
    expect(await answered(flood)).toEqual([401, 401, 503]);
  });

  it('limits sign-ins per client across addresses', async () => {
    const client = api.client();
    for (let n = 0; n < LIMITS.loginPerClient.hits; n++) {
      expect((await signIn(client, `guess-${n}@example.com`, 'wrong password')).status).toBe(401);
    }
    expect((await signIn(client, 'one-more@example.com', 'wrong password')).status).toBe(429);
  });

  it('signs out on the server: the old cookie no longer works', async () => {
    const { client } = await api.member();
    const token = client.cookies.get('__Host-session') ?? '';
    const answer = await client.post(ACCOUNT_API.logout);
    expect(answer.status).toBe(200);
    expect(answer.headers.getSetCookie().join()).toMatch(/__Host-session=;.*Max-Age=0/);
    expect(answer.headers.getSetCookie().join()).toMatch(/signed_in=;.*Max-Age=0/);
    const replay = new TestClient(api.app());
    replay.cookies.set('__Host-session', token);
    expect((await replay.get(ACCOUNT_API.account)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
    expect((await api.client().post(ACCOUNT_API.logout)).status).toBe(200);
  });

  it('ends a session left unused for the idle timeout, saying so once', async () => {
    const { client, person } = await api.member();
    await api.age('sessions', "last_seen_at = now() - interval '8 days'", person.email);
    const token = client.cookies.get('__Host-session') ?? '';
    const lapsed = await client.get(ACCOUNT_API.account);
    expect(lapsed).toMatchObject({ status: 401, body: { error: { code: 'SESSION_EXPIRED' } } });
    expect(client.cookies.has('__Host-session')).toBe(false);
    const replay = new TestClient(api.app());
    replay.cookies.set('__Host-session', token);
    expect((await replay.get(ACCOUNT_API.account)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
  });

  it('follows the configured idle timeout, and use keeps a session alive', async () => {
    const { client, person } = await api.member();
    const short = new TestClient(api.app({ settings: { sessionIdleSeconds: 120 } }));
    for (const [name, value] of client.cookies) short.cookies.set(name, value);
    const setIdle = (seconds: number) =>
      api.age('sessions', "last_seen_at = now() - $2::integer * interval '1 second'", person.email, seconds);
    await setIdle(100);
    expect((await short.get(ACCOUNT_API.account)).status).toBe(200);
    // That use counted: another 100 seconds later the session is still alive.
    await setIdle(100);
    expect((await short.get(ACCOUNT_API.account)).status).toBe(200);
    await setIdle(130);
    expect((await short.get(ACCOUNT_API.account)).body).toEqual({ error: { code: 'SESSION_EXPIRED' } });
  });

  it('ends a session at its absolute end, however much it is used', async () => {
    const { client, person } = await api.member();
    await api.age('sessions', "expires_at = now() - interval '1 second'", person.email);
    expect((await client.get(ACCOUNT_API.session)).body).toEqual({ account: null, expired: true });
    expect(client.cookies.has('__Host-session')).toBe(false);
    expect((await client.get(ACCOUNT_API.session)).body).toEqual({ account: null });
  });

  it('ignores a forged session cookie', async () => {
    const client = api.client();
    client.cookies.set('__Host-session', "x' OR '1'='1");
    expect((await client.get(ACCOUNT_API.session)).body).toEqual({ account: null });
    expect((await client.get(ACCOUNT_API.account)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
  });
});
