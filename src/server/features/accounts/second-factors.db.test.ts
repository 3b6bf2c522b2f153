import { expect, it } from 'vitest';
import {
  ACCOUNT_API,
  type LoginAnswer,
  type RecoveryCodesAnswer,
  type SecondFactorsAnswer,
  type TotpStartAnswer,
} from '#common/account-api.ts';
import { INBOX_API } from '#common/inbox-api.ts';
import { STAFF_API } from '#common/staff-api.ts';
import { type ApiSuite, describeApi, type Person, type TestClient } from '#tests/support/api.ts';
import { codeFor } from '#tests/support/second-factor.ts';
import { LIMITS } from './limits.ts';

/** A member who set up an authenticator app through the account page's calls, in that browser. */
async function withApp(api: ApiSuite) {
  const { client, person } = await api.member();
  const start = (await client.post(ACCOUNT_API.totpStart, {})).body as unknown as TotpStartAnswer;
  const confirmed = await client.post(ACCOUNT_API.totpConfirm, {
    code: codeFor(start.secret),
    password: person.password,
  });
  if (confirmed.status !== 200) throw new Error(`Confirmation answered ${confirmed.status}`);
  const { recoveryCodes } = confirmed.body as unknown as RecoveryCodesAnswer;
  return { client, person, secret: start.secret, recoveryCodes };
}

/** Gives the password in a new browser: the answer and the browser. */
async function firstStep(api: ApiSuite, person: Person, client: TestClient = api.client()) {
  const answer = await client.post(ACCOUNT_API.login, { email: person.email, password: person.password });
  return { client, answer: answer.body as unknown as LoginAnswer, status: answer.status };
}

const pendingOf = (answer: LoginAnswer) => (answer.status === 'second-factor-required' ? answer.pending : '');

describeApi('second factors', (api) => {
  it('sets up an app: a QR code and the secret, confirmed by a first code with the password', async () => {
    const { client, person } = await api.member();
    expect((await client.get(ACCOUNT_API.secondFactors)).body).toEqual({
      totp: false,
      passkey: false,
      recoveryCodesLeft: 0,
      trustedBrowsers: [],
    });
    const other = api.client();
    await other.post(ACCOUNT_API.login, { email: person.email, password: person.password });

    const start = await client.post(ACCOUNT_API.totpStart, {});
    expect(start.status).toBe(201);
    const { secret, uri, qrSvg } = start.body as unknown as TotpStartAnswer;
    expect(uri).toContain(`secret=${secret}`);
    expect(qrSvg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // Asking again replaces the secret: the first one's codes no longer confirm.
    const again = (await client.post(ACCOUNT_API.totpStart, {})).body as unknown as TotpStartAnswer;
    expect(again.secret).not.toBe(secret);

    expect(
      await client.post(ACCOUNT_API.totpConfirm, { code: codeFor(secret), password: person.password }),
    ).toMatchObject({ status: 400, body: { error: { code: 'INVALID_CODE', fields: { code: 'INVALID_CODE' } } } });
    expect(
      await client.post(ACCOUNT_API.totpConfirm, { code: codeFor(again.secret), password: 'not the password' }),
    ).toMatchObject({ status: 403, body: { error: { code: 'AUTHENTICATION_FAILED' } } });
    const confirmed = await client.post(ACCOUNT_API.totpConfirm, {
      code: codeFor(again.secret),
      password: person.password,
    });
    expect(confirmed.status).toBe(200);
    const { recoveryCodes } = confirmed.body as unknown as RecoveryCodesAnswer;
    expect(recoveryCodes).toHaveLength(10);

    // Only the browser that added the factor stays signed in, and its session now counts two factors.
    expect((await other.get(ACCOUNT_API.account)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
    expect((await client.get(ACCOUNT_API.account)).status).toBe(200);
    const [session] = await api
      .db()
      .query<{ factors: string[] }>(
        'SELECT factors FROM sessions WHERE account_id = (SELECT id FROM accounts WHERE email = $1)',
        [person.email],
      );
    expect(session?.factors).toEqual(['email-code', 'totp']);
    expect((await client.get(ACCOUNT_API.secondFactors)).body).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
    expect((await client.post(ACCOUNT_API.totpStart, {})).body).toEqual({ error: { code: 'TOTP_ALREADY_ON' } });
    const mail = await api.mail().waitFor(person.email, 1);
    expect(mail.subject).toContain('Two-step verification is now on');
    expect(mail.text).toContain('If it was not you');
  });

  it('asks for the code on a step of its own, and a code works once', async () => {
    const { person, secret } = await withApp(api);
    const { client, answer } = await firstStep(api, person);
    expect(answer.status).toBe('second-factor-required');
    expect(client.cookies.has('__Host-session')).toBe(false);
    const pending = pendingOf(answer);

    // The code used to confirm the app is spent already.
    expect(await client.post(ACCOUNT_API.loginSecondFactor, { pending, code: codeFor(secret) })).toMatchObject({
      status: 401,
      body: { error: { code: 'INVALID_CODE' } },
    });
    const signedIn = await client.post(ACCOUNT_API.loginSecondFactor, { pending, code: codeFor(secret, 1) });
    expect(signedIn).toMatchObject({ status: 200, body: { status: 'signed-in', account: { name: person.name } } });
    expect((await client.get(ACCOUNT_API.account)).status).toBe(200);
    // The pending sign-in is used up, and the same code does not open another.
    expect((await client.post(ACCOUNT_API.loginSecondFactor, { pending, code: codeFor(secret, 1) })).body).toEqual({
      error: { code: 'SIGN_IN_EXPIRED' },
    });
    const second = await firstStep(api, person);
    expect(
      (
        await second.client.post(ACCOUNT_API.loginSecondFactor, {
          pending: pendingOf(second.answer),
          code: codeFor(secret, 1),
        })
      ).body,
    ).toMatchObject({ error: { code: 'INVALID_CODE' } });
    const [session] = await api.db().query<{ factors: string[] }>(
      `SELECT factors FROM sessions WHERE account_id = (SELECT id FROM accounts WHERE email = $1)
         ORDER BY created_at DESC LIMIT 1`,
      [person.email],
    );
    expect(session?.factors).toEqual(['password', 'totp']);
  });

  it('lets a recovery code in once, tells the owner, and makes new codes that replace the old', async () => {
    const { client: owner, person, recoveryCodes } = await withApp(api);
    const [first = '', second = ''] = recoveryCodes;
    const { client, answer } = await firstStep(api, person);
    const typed = ` ${first.toUpperCase().replace('-', ' ')} `;
    expect((await client.post(ACCOUNT_API.loginSecondFactor, { pending: pendingOf(answer), code: typed })).status).toBe(
      200,
    );
    const used = await api.mail().waitFor(person.email, 2);
    expect(used.subject).toContain('recovery code');
    expect(used.text).toContain('You have 9 unused codes left.');

    const again = await firstStep(api, person);
    expect(
      (await again.client.post(ACCOUNT_API.loginSecondFactor, { pending: pendingOf(again.answer), code: first })).body,
    ).toMatchObject({ error: { code: 'INVALID_CODE' } });

    expect((await client.post(ACCOUNT_API.recoveryCodes, { password: 'wrong password' })).status).toBe(403);
    const renewed = await client.post(ACCOUNT_API.recoveryCodes, { password: person.password });
    expect(renewed.status).toBe(200);
    const fresh = (renewed.body as unknown as RecoveryCodesAnswer).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(second);
    expect((await api.mail().waitFor(person.email, 3)).subject).toContain('New recovery codes');
    const old = await firstStep(api, person);
    expect(
      (await old.client.post(ACCOUNT_API.loginSecondFactor, { pending: pendingOf(old.answer), code: second })).body,
    ).toMatchObject({ error: { code: 'INVALID_CODE' } });
    expect(
      (await old.client.post(ACCOUNT_API.loginSecondFactor, { pending: pendingOf(old.answer), code: fresh[0] })).status,
    ).toBe(200);
    // Renewing codes is not adding a factor: the owner's browser stays signed in.
    expect((await owner.get(ACCOUNT_API.account)).status).toBe(200);
  });

  it('limits guesses: five per pending sign-in, ten per account and quarter of an hour, and a few minutes to answer', async () => {
    const { person, secret } = await withApp(api);
    const { client, answer } = await firstStep(api, person);
    const pending = pendingOf(answer);
    for (let i = 0; i < 5; i++) {
      expect((await client.post(ACCOUNT_API.loginSecondFactor, { pending, code: '000000' })).body).toMatchObject({
        error: { code: 'INVALID_CODE' },
      });
    }
    // Out of tries: even the right code needs the password again.
    expect((await client.post(ACCOUNT_API.loginSecondFactor, { pending, code: codeFor(secret, 1) })).body).toEqual({
      error: { code: 'SIGN_IN_EXPIRED' },
    });

    const late = await firstStep(api, person);
    await api.db().query("UPDATE pending_sign_ins SET expires_at = now() - interval '1 second'");
    expect(
      (
        await late.client.post(ACCOUNT_API.loginSecondFactor, {
          pending: pendingOf(late.answer),
          code: codeFor(secret, 1),
        })
      ).body,
    ).toEqual({ error: { code: 'SIGN_IN_EXPIRED' } });

    for (let i = 5; i < LIMITS.secondFactorPerAccount.hits; i++) {
      const step = await firstStep(api, person);
      await step.client.post(ACCOUNT_API.loginSecondFactor, { pending: pendingOf(step.answer), code: '000000' });
    }
    const locked = await firstStep(api, person);
    const refused = await locked.client.post(ACCOUNT_API.loginSecondFactor, {
      pending: pendingOf(locked.answer),
      code: codeFor(secret, 1),
    });
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'TOO_MANY_REQUESTS' } } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('trusts a browser for 30 days when asked, lists it, and forgets it when told', async () => {
    const { person, secret } = await withApp(api);
    const { client, answer } = await firstStep(api, person);
    const done = await client.post(ACCOUNT_API.loginSecondFactor, {
      pending: pendingOf(answer),
      code: codeFor(secret, 1),
      trustBrowser: true,
    });
    const cookie = done.headers.getSetCookie().find((line) => line.startsWith('__Host-trusted='));
    expect(cookie).toMatch(/^__Host-trusted=[\w-]+; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    await client.post(ACCOUNT_API.logout, {});
    expect((await firstStep(api, person, client)).answer.status).toBe('signed-in');
    const { trustedBrowsers } = (await client.get(ACCOUNT_API.secondFactors)).body as unknown as SecondFactorsAnswer;
    expect(trustedBrowsers).toEqual([
      expect.objectContaining({ current: true, label: '', id: expect.any(String), expiresAt: expect.any(String) }),
    ]);
    // Another browser is not trusted.
    expect((await firstStep(api, person)).answer.status).toBe('second-factor-required');

    expect((await client.post(ACCOUNT_API.forgetBrowser, { id: trustedBrowsers[0]?.id })).status).toBe(200);
    expect((await client.post(ACCOUNT_API.forgetBrowser, { id: trustedBrowsers[0]?.id })).body).toEqual({
      error: { code: 'NOT_FOUND' },
    });
    await client.post(ACCOUNT_API.logout, {});
    expect((await firstStep(api, person, client)).answer.status).toBe('second-factor-required');
  });

  it('still asks for the second factor after a password reset, even in a trusted browser', async () => {
    const { person, secret } = await withApp(api);
    const { client, answer } = await firstStep(api, person);
    await client.post(ACCOUNT_API.loginSecondFactor, {
      pending: pendingOf(answer),
      code: codeFor(secret, 1),
      trustBrowser: true,
    });
    expect(client.cookies.has('__Host-trusted')).toBe(true);

    // The code, then the mail saying the app was set up; the reset code comes third.
    await api.mail().waitFor(person.email, 1);
    await client.post(ACCOUNT_API.forgotPassword, { email: person.email });
    const resetMail = await api.mail().waitFor(person.email, 2);
    const code = /^\s+(\d{6})$/m.exec(resetMail.text)?.[1];
    const password = `${person.password} renewed`;
    expect((await client.post(ACCOUNT_API.resetPassword, { email: person.email, code, password })).status).toBe(200);
    const after = await client.post(ACCOUNT_API.login, { email: person.email, password });
    expect((after.body as unknown as LoginAnswer).status).toBe('second-factor-required');
  });

  it('turns the app off with the password and a current code, ending the other sessions', async () => {
    const { client, person, secret, recoveryCodes } = await withApp(api);
    const elsewhere = await firstStep(api, person);
    await elsewhere.client.post(ACCOUNT_API.loginSecondFactor, {
      pending: pendingOf(elsewhere.answer),
      code: recoveryCodes[0],
    });
    expect((await elsewhere.client.get(ACCOUNT_API.account)).status).toBe(200);

    expect(await client.post(ACCOUNT_API.totpDisable, { password: person.password, code: '123456' })).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_CODE' } },
    });
    expect(
      (await client.post(ACCOUNT_API.totpDisable, { password: 'wrong one', code: codeFor(secret, 1) })).status,
    ).toBe(403);
    expect(
      (await client.post(ACCOUNT_API.totpDisable, { password: person.password, code: codeFor(secret, 1) })).status,
    ).toBe(200);
    expect((await elsewhere.client.get(ACCOUNT_API.account)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
    expect((await client.get(ACCOUNT_API.secondFactors)).body).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
    expect((await firstStep(api, person)).answer.status).toBe('signed-in');
    await expect
      .poll(() =>
        api.mail().mails.some((mail) => mail.to.includes(person.email) && mail.subject.includes('turned off')),
      )
      .toBe(true);
    expect((await client.post(ACCOUNT_API.totpDisable, { password: person.password, code: '123456' })).body).toEqual({
      error: { code: 'TOTP_NOT_SET_UP' },
    });
    expect((await client.post(ACCOUNT_API.recoveryCodes, { password: person.password })).body).toEqual({
      error: { code: 'TOTP_NOT_SET_UP' },
    });
  });

  it('answers junk with a 4xx and an error code, never a 5xx', async () => {
    const { client } = await api.member();
    const signedOut = api.client();
    const calls: [string, unknown][] = [
      [ACCOUNT_API.loginSecondFactor, {}],
      [ACCOUNT_API.loginSecondFactor, { pending: 'x'.repeat(500), code: '123456' }],
      [ACCOUNT_API.loginSecondFactor, { pending: 'nothing', code: 42 }],
      [ACCOUNT_API.loginSecondFactor, { pending: 'nothing', code: '123456', trustBrowser: 'yes' }],
      [ACCOUNT_API.loginSecondFactor, { pending: 'nothing', code: '123456' }],
      [ACCOUNT_API.loginSecondFactor, '[1,2'],
      [ACCOUNT_API.totpStart, 'null'],
      [ACCOUNT_API.totpConfirm, {}],
      [ACCOUNT_API.totpConfirm, { code: '1'.repeat(100), password: 'x' }],
      [ACCOUNT_API.totpConfirm, { code: '123456', password: 'x' }],
      [ACCOUNT_API.totpDisable, { code: null, password: 'x' }],
      [ACCOUNT_API.recoveryCodes, { password: 7 }],
      [ACCOUNT_API.forgetBrowser, { id: 'not-an-id' }],
      [ACCOUNT_API.forgetBrowser, { id: '00000000-0000-4000-8000-000000000000' }],
    ];
    for (const [path, body] of calls) {
      for (const browser of [client, signedOut]) {
        const answer = await browser.post(path, body);
        expect(answer.status, `${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${path} ${JSON.stringify(body)}`).toBeLessThan(500);
        expect(answer.body, `${path} ${JSON.stringify(body)}`).toMatchObject({ error: { code: expect.any(String) } });
      }
    }
    expect((await signedOut.get(ACCOUNT_API.secondFactors)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
  });

  it('keeps the console shut to staff without a second factor, and to a session made without one', async () => {
    const { client, person } = await api.member();
    await api.db().query(`UPDATE accounts SET role = 'admin' WHERE email = $1`, [person.email]);
    for (const path of [STAFF_API.me, STAFF_API.members, INBOX_API.messages]) {
      expect(await client.get(path)).toMatchObject({
        status: 403,
        body: { error: { code: 'SECOND_FACTOR_REQUIRED' } },
      });
    }
    const start = (await client.post(ACCOUNT_API.totpStart, {})).body as unknown as TotpStartAnswer;
    await client.post(ACCOUNT_API.totpConfirm, { code: codeFor(start.secret), password: person.password });
    expect((await client.get(STAFF_API.me)).status).toBe(200);
    // A session that never proved the second factor (one from before it was required) is refused.
    await api.age('sessions', `factors = '{password}'`, person.email);
    expect((await client.get(STAFF_API.me)).body).toEqual({ error: { code: 'SECOND_FACTOR_REQUIRED' } });
    // A member is still told the console is not for them.
    const member = await api.member();
    expect((await member.client.get(STAFF_API.me)).body).toEqual({ error: { code: 'FORBIDDEN' } });
  });
});
