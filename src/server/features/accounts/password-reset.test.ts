import { expect, it } from 'vitest';
import { AUTH_API, CODE_MAX_ATTEMPTS } from '#common/account-api.ts';
import { accountPerson, describeApi } from '#tests/support/api.ts';
import { codeIn } from '#tests/support/people.ts';

describeApi('forgotten password', (api) => {
  async function resetCode(email: string, language = 'en') {
    const before = api.mail().mails.filter((mail) => mail.to.includes(email)).length;
    const answer = await api.client().post(AUTH_API.forgotPassword, { email, language });
    expect(answer).toMatchObject({ status: 202, body: {} });
    const mail = await api.mail().waitFor(email, before);
    return { mail, code: codeIn(mail.text) };
  }

  it('mails a code in the visitor’s language, then sets the new password and ends every session', async () => {
    const { client, person } = await api.member();
    const elsewhere = api.client();
    expect((await elsewhere.post(AUTH_API.login, { email: person.email, password: person.password })).status).toBe(200);

    const { mail, code } = await resetCode(person.email, 'nl');
    expect(mail.subject).toBe('Stel je Your Company-wachtwoord opnieuw in');
    expect(mail.text).toContain(`http://localhost:3000/nl/forgot-password#email=${encodeURIComponent(person.email)}`);

    const reset = api.client();
    const answer = await reset.post(AUTH_API.resetPassword, {
      email: person.email,
      code,
      password: 'a brand new secret',
    });
    expect(answer).toMatchObject({ status: 200, body: {} });
    for (const browser of [client, elsewhere]) {
      expect((await browser.get(AUTH_API.account)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
    }
    const old = await api.client().post(AUTH_API.login, { email: person.email, password: person.password });
    expect(old.body).toEqual({ error: { code: 'INVALID_CREDENTIALS' } });
    const fresh = await api.client().post(AUTH_API.login, { email: person.email, password: 'a brand new secret' });
    expect(fresh.status).toBe(200);

    const reuse = await api
      .client()
      .post(AUTH_API.resetPassword, { email: person.email, code, password: 'x'.repeat(9) });
    expect(reuse.body).toEqual({ error: { code: 'VERIFICATION_FAILED', fields: { code: 'VERIFICATION_FAILED' } } });
  });

  it('answers an unknown address the same way and mails nothing', async () => {
    const email = 'no-such-member@example.com';
    const answer = await api.client().post(AUTH_API.forgotPassword, { email });
    expect(answer).toMatchObject({ status: 202, body: {} });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(api.mail().mails.filter((mail) => mail.to.includes(email))).toEqual([]);
  });

  it(`refuses the code after ${CODE_MAX_ATTEMPTS} wrong tries, and the password stays`, async () => {
    const { person } = await api.member();
    const { code } = await resetCode(person.email);
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
    for (let n = 0; n < CODE_MAX_ATTEMPTS; n++) {
      const answer = await api.client().post(AUTH_API.resetPassword, {
        email: person.email,
        code: wrong,
        password: 'attacker password',
      });
      expect(answer.status).toBe(400);
    }
    const late = await api.client().post(AUTH_API.resetPassword, {
      email: person.email,
      code,
      password: 'attacker password',
    });
    expect(late.body).toEqual({ error: { code: 'VERIFICATION_FAILED', fields: { code: 'VERIFICATION_FAILED' } } });
    expect((await api.client().post(AUTH_API.login, { email: person.email, password: person.password })).status).toBe(
      200,
    );
  });

  it('applies the password rules to the new password', async () => {
    const answer = await api.client().post(AUTH_API.resetPassword, {
      email: 'a@example.com',
      code: '123456',
      password: 'short',
    });
    expect(answer.body).toEqual({ error: { code: 'VALIDATION_ERROR', fields: { password: 'INVALID_PASSWORD' } } });
  });

  it('verifies an account whose owner proves the address this way', async () => {
    const person = accountPerson();
    await api.client().post(AUTH_API.register, person);
    await api.mail().waitFor(person.email);
    const { code } = await resetCode(person.email);
    expect(
      (await api.client().post(AUTH_API.resetPassword, { email: person.email, code, password: 'new password 1' }))
        .status,
    ).toBe(200);
    const login = await api.client().post(AUTH_API.login, { email: person.email, password: 'new password 1' });
    expect(login.body).toMatchObject({ status: 'signed-in' });
  });

  it('limits reset mails per address', async () => {
    const { person } = await api.member();
    await resetCode(person.email);
    const refused = await api.client().post(AUTH_API.forgotPassword, { email: person.email });
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'TOO_MANY_REQUESTS' } } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
