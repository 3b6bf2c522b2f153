import { expect, it } from 'vitest';
import { ACCOUNT_API, CODE_MAX_ATTEMPTS } from '#common/account-api.ts';
import { accountPerson, describeApi } from '#tests/support/api.ts';
import { codeIn } from '#tests/support/people.ts';
import { LIMITS } from './limits.ts';

describeApi('forgotten password', (api) => {
  async function resetCode(email: string, language = 'en') {
    const before = api.mail().mails.filter((mail) => mail.to.includes(email)).length;
    const answer = await api.client().post(ACCOUNT_API.forgotPassword, { email, language });
    expect(answer).toMatchObject({ status: 202, body: {} });
    const mail = await api.mail().waitFor(email, before);
    return { mail, code: codeIn(mail.text) };
  }

  it('mails a code in the visitor’s language, then sets the new password and ends every session', async () => {
    const { client, person } = await api.member();
    const elsewhere = api.client();
    expect((await elsewhere.post(ACCOUNT_API.login, { email: person.email, password: person.password })).status).toBe(
      200,
    );

    const { mail, code } = await resetCode(person.email, 'nl');
    expect(mail.subject).toBe('Stel je Your Company-wachtwoord opnieuw in');
    expect(mail.text).toContain(`http://localhost:3000/nl/forgot-password#email=${encodeURIComponent(person.email)}`);

    const reset = api.client();
    const answer = await reset.post(ACCOUNT_API.resetPassword, {
      email: person.email,
      code,
      password: 'a brand new secret',
    });
    expect(answer).toMatchObject({ status: 200, body: {} });
    for (const browser of [client, elsewhere]) {
      expect((await browser.get(ACCOUNT_API.account)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
    }
    const old = await api.client().post(ACCOUNT_API.login, { email: person.email, password: person.password });
    expect(old.body).toEqual({ error: { code: 'INVALID_CREDENTIALS' } });
    const fresh = await api.client().post(ACCOUNT_API.login, { email: person.email, password: 'a brand new secret' });
    expect(fresh.status).toBe(200);

    const reuse = await api
      .client()
      .post(ACCOUNT_API.resetPassword, { email: person.email, code, password: 'x'.repeat(9) });
    expect(reuse.body).toEqual({ error: { code: 'VERIFICATION_FAILED', fields: { code: 'VERIFICATION_FAILED' } } });
  });

  it('answers an unknown address the same way and mails nothing', async () => {
    const email = 'no-such-member@example.com';
    const answer = await api.client().post(ACCOUNT_API.forgotPassword, { email });
    expect(answer).toMatchObject({ status: 202, body: {} });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(api.mail().mails.filter((mail) => mail.to.includes(email))).toEqual([]);
  });

  it(`refuses the code after ${CODE_MAX_ATTEMPTS} wrong tries, and the password stays`, async () => {
    const { person } = await api.member();
    const { code } = await resetCode(person.email);
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
    for (let n = 0; n < CODE_MAX_ATTEMPTS; n++) {
      const answer = await api.client().post(ACCOUNT_API.resetPassword, {
        email: person.email,
        code: wrong,
        password: 'attacker password',
      });
      expect(answer.status).toBe(400);
    }
    const late = await api.client().post(ACCOUNT_API.resetPassword, {
      email: person.email,
      code,
      password: 'attacker password',
    });
    expect(late.body).toEqual({ error: { code: 'VERIFICATION_FAILED', fields: { code: 'VERIFICATION_FAILED' } } });
    expect(
      (await api.client().post(ACCOUNT_API.login, { email: person.email, password: person.password })).status,
    ).toBe(200);
  });

  it('applies the password rules to the new password', async () => {
    const answer = await api.client().post(ACCOUNT_API.resetPassword, {
      email: 'a@example.com',
      code: '123456',
      password: 'short',
    });
    expect(answer.body).toEqual({ error: { code: 'VALIDATION_ERROR', fields: { password: 'INVALID_PASSWORD' } } });
  });

  it('refuses one of the most common passwords as the new one, and the code stays good', async () => {
    const { person } = await api.member();
    const { code } = await resetCode(person.email);
    const common = await api
      .client()
      .post(ACCOUNT_API.resetPassword, { email: person.email, code, password: 'Sunshine1' });
    expect(common).toMatchObject({
      status: 400,
      body: { error: { code: 'PASSWORD_TOO_COMMON', fields: { password: 'PASSWORD_TOO_COMMON' } } },
    });
    const chosen = await api
      .client()
      .post(ACCOUNT_API.resetPassword, { email: person.email, code, password: 'a brand new secret' });
    expect(chosen.status).toBe(200);
  });

  it('verifies an account whose owner proves the address this way', async () => {
    const person = accountPerson();
    await api.client().post(ACCOUNT_API.register, person);
    await api.mail().waitFor(person.email);
    const { code } = await resetCode(person.email);
    expect(
      (await api.client().post(ACCOUNT_API.resetPassword, { email: person.email, code, password: 'new password 1' }))
        .status,
    ).toBe(200);
    const login = await api.client().post(ACCOUNT_API.login, { email: person.email, password: 'new password 1' });
    expect(login.body).toMatchObject({ status: 'signed-in' });
  });

  it('limits reset mails per address', async () => {
    const { person } = await api.member();
    await resetCode(person.email);
    const refused = await api.client().post(ACCOUNT_API.forgotPassword, { email: person.email });
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'TOO_MANY_REQUESTS' } } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  /** Sets off the account's sign-in lock as anyone could: wrong passwords from many clients. */
  async function lockOut(email: string) {
    for (let n = 0; n < LIMITS.loginPerAccount.hits; n++) {
      await api.client().post(ACCOUNT_API.login, { email, password: 'a wrong guess' });
    }
    const locked = await api.client().post(ACCOUNT_API.login, { email, password: 'a wrong guess' });
    expect(locked.status).toBe(429);
  }

  it('lets the owner in after a reset, even while someone keeps the account locked', { timeout: 30_000 }, async () => {
    const { person } = await api.member();
    const other = await api.member();
    await lockOut(person.email);
    await lockOut(other.person.email);

    const owner = api.client();
    const { code } = await resetCode(person.email);
    const reset = await owner.post(ACCOUNT_API.resetPassword, { email: person.email, code, password: 'my new secret' });
    expect(reset.status).toBe(200);
    const signInPass = reset.body.signInPass as string;
    expect(signInPass).toEqual(expect.any(String));

    // The reset lifted the lock; whoever set it off sets it off again at once.
    await lockOut(person.email);
    const login = (email: string, extra: Record<string, unknown> = {}) =>
      owner.post(ACCOUNT_API.login, { email, password: 'my new secret', ...extra });
    expect((await login(person.email)).status).toBe(429);
    expect(await login(person.email, { signInPass })).toMatchObject({ status: 200, body: { status: 'signed-in' } });
    // The pass opens that account only, and only as issued.
    expect((await login(other.person.email, { signInPass })).status).toBe(429);
    expect((await login(person.email, { signInPass: `${signInPass}x` })).status).toBe(429);
    expect((await login(person.email, { signInPass: `1.${signInPass.split('.')[1]}` })).status).toBe(429);
  });

  it('gives a pass a limit of its own', async () => {
    const { person } = await api.member();
    const { code } = await resetCode(person.email);
    const reset = await api
      .client()
      .post(ACCOUNT_API.resetPassword, { email: person.email, code, password: 'my new secret' });
    const signInPass = reset.body.signInPass as string;
    for (let n = 0; n < LIMITS.loginPerPass.hits; n++) {
      const guess = await api.client().post(ACCOUNT_API.login, { email: person.email, password: 'guess', signInPass });
      expect(guess.status).toBe(401);
    }
    const refused = await api.client().post(ACCOUNT_API.login, { email: person.email, password: 'guess', signInPass });
    expect(refused.status).toBe(429);
  });

  it('lifts the lock when the owner confirms the address with a mailed code', async () => {
    const { client, person, code } = await api.registered();
    await lockOut(person.email);
    const verified = await client.post(ACCOUNT_API.verify, { email: person.email, code });
    expect(verified.status).toBe(200);
    expect((await client.get(ACCOUNT_API.account)).status).toBe(200);
    const elsewhere = await api.client().post(ACCOUNT_API.login, { email: person.email, password: person.password });
    expect(elsewhere).toMatchObject({ status: 200, body: { status: 'signed-in' } });
  });
});
