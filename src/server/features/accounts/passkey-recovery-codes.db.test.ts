import { expect, it } from 'vitest';
import { ACCOUNT_API, type LoginAnswer, type RecoveryCodesAnswer, type TotpStartAnswer } from '#common/account-api.ts';
import { PASSKEY_API, type PasskeysAnswer } from '#common/passkey-api.ts';
import { type ApiSuite, describeApi, type Person } from '#tests/support/api.ts';
import { addThroughApi, memberWithPasskey, site } from '#tests/support/passkey-client.ts';
import { codeFor } from '#tests/support/second-factor.ts';

/** Gives the password in a new browser, as the sign-in page does: the answer and the browser. */
async function passwordStep(api: ApiSuite, person: Person) {
  const client = api.client();
  const answer = (await client.post(ACCOUNT_API.login, { email: person.email, password: person.password }))
    .body as unknown as LoginAnswer;
  if (answer.status !== 'second-factor-required') throw new Error(`The password step answered ${answer.status}`);
  return { client, answer };
}

const factorsOf = async (api: ApiSuite, email: string) =>
  (
    await api
      .db()
      .query<{ factors: string[] }>(
        'SELECT factors FROM sessions WHERE account_id = (SELECT id FROM accounts WHERE email = $1) ORDER BY created_at',
        [email],
      )
  ).map((row) => row.factors);

// Recovery codes belong to every second factor: an account whose only one is a passkey sees how
// many are left, renews them with the password, and signs in with one when the passkey is lost.
describeApi('recovery codes of a passkey-only account', (api) => {
  it('counts and renews them with the password; the old ones stop working and the owner is mailed', async () => {
    const { client, person, answer } = await memberWithPasskey(api);
    const first = answer.recoveryCodes ?? [];
    expect(first).toHaveLength(10);
    expect((await client.get(ACCOUNT_API.secondFactors)).body).toMatchObject({
      totp: false,
      passkey: true,
      recoveryCodesLeft: 10,
    });

    expect(await client.post(ACCOUNT_API.recoveryCodes, { password: 'not the password' })).toMatchObject({
      status: 403,
      body: { error: { code: 'AUTHENTICATION_FAILED' } },
    });
    const renewed = await client.post(ACCOUNT_API.recoveryCodes, { password: person.password });
    expect(renewed.status).toBe(200);
    const fresh = (renewed.body as unknown as RecoveryCodesAnswer).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => first.includes(code))).toEqual([]);
    // Mail 1 told of the passkey; mail 2 of the new codes.
    const mail = await api.mail().waitFor(person.email, 2);
    expect(mail.subject).toBe(`New recovery codes for your ${site.brand.siteName} account`);
    expect(mail.text).toContain('If it was not you');

    const old = await passwordStep(api, person);
    expect(
      await old.client.post(ACCOUNT_API.loginSecondFactor, { pending: old.answer.pending, code: first[0] }),
    ).toMatchObject({ status: 401, body: { error: { code: 'INVALID_CODE' } } });
    const current = await passwordStep(api, person);
    expect(
      (await current.client.post(ACCOUNT_API.loginSecondFactor, { pending: current.answer.pending, code: fresh[0] }))
        .status,
    ).toBe(200);
  });

  it('offers a recovery code at the second step without an app, and lets one in once when the passkey is lost', async () => {
    const { person, answer } = await memberWithPasskey(api);
    const [code = ''] = answer.recoveryCodes ?? [];
    const { client, answer: step } = await passwordStep(api, person);
    // The page offers the passkey and, without an app, asks for a recovery code only.
    expect(step).toMatchObject({ passkey: true, totp: false });
    // Six digits are an app's code, which this account does not have.
    expect(await client.post(ACCOUNT_API.loginSecondFactor, { pending: step.pending, code: '123456' })).toMatchObject({
      status: 401,
      body: { error: { code: 'INVALID_CODE' } },
    });
    const signedIn = await client.post(ACCOUNT_API.loginSecondFactor, { pending: step.pending, code });
    expect(signedIn).toMatchObject({ status: 200, body: { status: 'signed-in', account: { name: person.name } } });
    expect((await factorsOf(api, person.email)).at(-1)).toEqual(['password', 'recovery-code']);
    const used = await api.mail().waitFor(person.email, 2);
    expect(used.subject).toContain('recovery code');
    expect(used.text).toContain('You have 9 unused codes left.');
    expect((await client.get(ACCOUNT_API.secondFactors)).body).toMatchObject({ recoveryCodesLeft: 9 });

    // The session a recovery code made may remove the lost passkey and add a new one.
    const listed = (await client.get(PASSKEY_API.list)).body as unknown as PasskeysAnswer;
    expect(
      (await client.post(PASSKEY_API.remove, { id: listed.passkeys[0]?.id, password: person.password })).status,
    ).toBe(200);
    expect((await client.get(ACCOUNT_API.secondFactors)).body).toMatchObject({ recoveryCodesLeft: 0 });
    expect((await addThroughApi(client, person.password, 'New phone')).added.status).toBe(201);

    const again = await passwordStep(api, person);
    expect(
      await again.client.post(ACCOUNT_API.loginSecondFactor, { pending: again.answer.pending, code }),
    ).toMatchObject({ status: 401, body: { error: { code: 'INVALID_CODE' } } });
  });

  it('keeps the codes when the app is turned off while a passkey remains', async () => {
    const { client, person, answer } = await memberWithPasskey(api);
    const start = (await client.post(ACCOUNT_API.totpStart, {})).body as unknown as TotpStartAnswer;
    const confirmed = await client.post(ACCOUNT_API.totpConfirm, {
      code: codeFor(start.secret),
      password: person.password,
    });
    // Adding the app made new codes; they replace the passkey's.
    const codes = (confirmed.body as unknown as RecoveryCodesAnswer).recoveryCodes;
    expect(codes.filter((code) => answer.recoveryCodes?.includes(code))).toEqual([]);
    expect(
      (await client.post(ACCOUNT_API.totpDisable, { code: codeFor(start.secret, 1), password: person.password }))
        .status,
    ).toBe(200);
    expect((await client.get(ACCOUNT_API.secondFactors)).body).toMatchObject({ totp: false, recoveryCodesLeft: 10 });
    const step = await passwordStep(api, person);
    expect(step.answer).toMatchObject({ passkey: true, totp: false });
    expect(
      (await step.client.post(ACCOUNT_API.loginSecondFactor, { pending: step.answer.pending, code: codes[3] })).status,
    ).toBe(200);
  });

  it('refuses new codes to an account without a second factor', async () => {
    const { client, person } = await api.member();
    expect(await client.post(ACCOUNT_API.recoveryCodes, { password: person.password })).toMatchObject({
      status: 409,
      body: { error: { code: 'TOTP_NOT_SET_UP' } },
    });
  });
});
