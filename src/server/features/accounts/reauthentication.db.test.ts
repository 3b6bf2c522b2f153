import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACCOUNT_API, type RecoveryCodesAnswer, type TotpStartAnswer } from '#common/account-api.ts';
import { ACCOUNT_SETTINGS_API } from '#common/account-settings-api.ts';
import { IDENTITY_API } from '#common/identity-api.ts';
import { PASSKEY_API } from '#common/passkey-api.ts';
import {
  REAUTHENTICATION_API,
  REAUTHENTICATION_MINUTES,
  type ReauthenticateAnswer,
  type ReauthenticationAnswer,
} from '#common/reauthentication-api.ts';
import type { ApiApp } from '#server/app.ts';
import { addPasskey } from '#server/features/accounts/index.ts';
import { loadSiteConfig } from '#server/platform/site-config.ts';
import { describeApi, type TestClient } from '#tests/support/api.ts';
import {
  newProviderPerson,
  type ProviderPerson,
  passProvider,
  startTestOidcProvider,
  type TestOidcProvider,
  testProviderSettings,
} from '#tests/support/oidc-provider.ts';
import { codeFor } from '#tests/support/second-factor.ts';

const site = await loadSiteConfig();
const CALLBACK = `${site.siteUrl}${IDENTITY_API.callback('test')}`;

const location = (response: Response) => {
  const url = new URL(response.headers.get('location') ?? '', site.siteUrl);
  return url.pathname + url.search + url.hash;
};

const nowSeconds = () => Math.floor(Date.now() / 1000);

describeApi('re-authentication at a provider for an account without a password', (api) => {
  let provider: TestOidcProvider;
  let shared: ApiApp;
  beforeAll(async () => {
    provider = await startTestOidcProvider([CALLBACK]);
  });
  afterAll(() => provider?.close());

  const app = () => {
    shared ??= api.app({
      settings: testProviderSettings(provider),
    });
    return shared;
  };

  /** Someone new at the provider signs in, which makes their account (no password): its browser. */
  const passwordless = async (person = newProviderPerson()) => {
    const client = api.client(app());
    const start = await client.fetch('GET', `${IDENTITY_API.start('test')}?lang=en`);
    const back = await passProvider(start.headers.get('location') ?? '', person);
    expect(location(await client.fetch('GET', back.pathname + back.search))).toBe('/en/account');
    return { client, person };
  };

  /** Asks to confirm a change, goes through the provider as `person`, and comes back: where to. */
  const reauthenticate = async (client: TestClient, person: ProviderPerson, returnTo = 'delete') => {
    const started = await client.post(REAUTHENTICATION_API.start, { provider: 'test', language: 'en', returnTo });
    expect(started.status).toBe(200);
    const back = await passProvider((started.body as unknown as ReauthenticateAnswer).url, person);
    return location(await client.fetch('GET', back.pathname + back.search));
  };

  const stateOf = async (client: TestClient) =>
    (await client.get(REAUTHENTICATION_API.state)).body as unknown as ReauthenticationAnswer;
  const refused = { status: 403, body: { error: { code: 'REAUTHENTICATION_REQUIRED' } } };
  const outcome = ({ status, body }: { status: number; body: unknown }) => ({ status, body });

  it('asks the provider for a sign-in now, only at a provider linked to the account, only when signed in', async () => {
    const { client } = await passwordless();
    const started = await client.post(REAUTHENTICATION_API.start, {
      provider: 'test',
      language: 'fr',
      returnTo: 'passkeys',
    });
    const url = new URL((started.body as unknown as ReauthenticateAnswer).url);
    expect(url.origin).toBe(provider.issuer);
    expect([url.searchParams.get('prompt'), url.searchParams.get('max_age')]).toEqual(['login', '0']);
    expect(url.searchParams.get('ui_locales')).toBe('fr');

    expect((await api.client(app()).post(REAUTHENTICATION_API.start, { provider: 'test' })).status).toBe(401);
    expect((await client.post(REAUTHENTICATION_API.start, { provider: 'nobody', returnTo: 'delete' })).status).toBe(
      404,
    );
    for (const junk of [{ provider: 'test', returnTo: 'https://evil.example' }, { provider: 7 }, 'not json']) {
      const answer = await client.post(REAUTHENTICATION_API.start, junk);
      expect(answer.status).toBe(400);
      expect(['VALIDATION_ERROR', 'INVALID_REQUEST']).toContain((answer.body.error as { code: string }).code);
    }
    // A member with a password and no identity has no provider to confirm with.
    const { client: member } = await api.member();
    expect((await member.post(REAUTHENTICATION_API.start, { provider: 'test', returnTo: 'delete' })).status).toBe(404);
    expect(await stateOf(member)).toEqual({ passwordless: false, providers: [], until: null });
  });

  it('lets a fresh sign-in with the linked identity stand in for the password, once', async () => {
    const { client, person } = await passwordless();
    expect(await stateOf(client)).toEqual({
      passwordless: true,
      providers: [{ id: 'test', name: 'Test ID' }],
      until: null,
    });
    expect(outcome(await client.post(ACCOUNT_API.deleteAccount, {}))).toEqual(refused);
    expect(outcome(await client.post(ACCOUNT_API.recoveryCodes, {}))).toEqual(refused);

    expect(await reauthenticate(client, person, 'email')).toBe('/en/account?oidc=reauthenticated&confirmed=email');
    const { until } = await stateOf(client);
    const left = new Date(until ?? 0).getTime() - Date.now();
    expect(left).toBeGreaterThan((REAUTHENTICATION_MINUTES * 60 - 30) * 1000);
    expect(left).toBeLessThanOrEqual(REAUTHENTICATION_MINUTES * 60 * 1000);

    const next = `next-${person.email}`;
    const started = await client.post(ACCOUNT_SETTINGS_API.emailChangeStart, { email: next });
    expect([started.status, started.body]).toEqual([202, { email: next }]);
    // Spent by that change: the next one asks again.
    expect((await stateOf(client)).until).toBeNull();
    expect(outcome(await client.post(ACCOUNT_SETTINGS_API.emailChangeStart, { email: `2-${next}` }))).toEqual(refused);
  });

  it('confirms the authenticator app, new recovery codes, turning it off and removing a passkey', async () => {
    const { client, person } = await passwordless();
    const start = (await client.post(ACCOUNT_API.totpStart, {})).body as unknown as TotpStartAnswer;
    expect(outcome(await client.post(ACCOUNT_API.totpConfirm, { code: codeFor(start.secret) }))).toEqual(refused);
    await reauthenticate(client, person, 'two-factor');
    const confirmed = await client.post(ACCOUNT_API.totpConfirm, { code: codeFor(start.secret) });
    expect((confirmed.body as unknown as RecoveryCodesAnswer).recoveryCodes).toHaveLength(10);

    expect(outcome(await client.post(ACCOUNT_API.recoveryCodes, {}))).toEqual(refused);
    await reauthenticate(client, person, 'two-factor');
    expect((await client.post(ACCOUNT_API.recoveryCodes, {})).status).toBe(200);

    await reauthenticate(client, person, 'two-factor');
    // A wrong code undoes nothing and spends nothing: the confirmation still holds for the right one.
    expect((await client.post(ACCOUNT_API.totpDisable, { code: '000000' })).status).toBe(400);
    expect((await client.post(ACCOUNT_API.totpDisable, { code: codeFor(start.secret, 1) })).status).toBe(200);

    const [account] = await api.db().query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [person.email]);
    const passkey = await addPasskey(api.db(), {
      accountId: account?.id ?? '',
      credentialId: `cred-${person.subject}`,
      publicKey: 'key',
      counter: 0,
      transports: [],
      name: 'Laptop',
    });
    expect(outcome(await client.post(PASSKEY_API.remove, { id: passkey?.id }))).toEqual(refused);
    await reauthenticate(client, person, 'passkeys');
    expect((await client.post(PASSKEY_API.remove, { id: passkey?.id })).status).toBe(200);
  });

  it('refuses a sign-in the provider did not ask for just now: older than the request, or minutes old', async () => {
    const { client, person } = await passwordless();
    for (const authTime of [nowSeconds() - 2 * 60, nowSeconds() - 20 * 60]) {
      expect(await reauthenticate(client, { ...person, authTime })).toBe(
        '/en/account?oidc=OIDC_NOT_REAUTHENTICATED&confirmed=delete',
      );
      expect((await stateOf(client)).until).toBeNull();
      expect(outcome(await client.post(ACCOUNT_API.deleteAccount, {}))).toEqual(refused);
    }
  });

  it('refuses another identity at the provider, new there or linked to another account', async () => {
    const { client } = await passwordless();
    const { person: someoneElse } = await passwordless();
    const stranger = newProviderPerson();
    for (const other of [stranger, someoneElse]) {
      expect(await reauthenticate(client, other, 'passkeys')).toBe(
        '/en/account?oidc=OIDC_WRONG_IDENTITY&confirmed=passkeys',
      );
      expect(outcome(await client.post(ACCOUNT_API.deleteAccount, {}))).toEqual(refused);
    }
    // Nobody was signed in or linked on the way.
    expect(await api.db().query('SELECT 1 FROM account_identities WHERE subject = $1', [stranger.subject])).toEqual([]);
    expect(await api.db().query('SELECT 1 FROM accounts WHERE email = $1', [stranger.email])).toEqual([]);
  });

  it('lapses after the minutes it lasts, and belongs to the session that asked', async () => {
    const { client, person } = await passwordless();
    await reauthenticate(client, person);
    // Another session of the same account (a second sign-in) is not confirmed by this one.
    const { client: second } = await passwordless(person);
    expect(outcome(await second.post(ACCOUNT_API.deleteAccount, {}))).toEqual(refused);

    await api.age(
      'sessions',
      `reauthenticated_at = now() - $2::integer * interval '1 minute' - interval '1 second'`,
      person.email,
      REAUTHENTICATION_MINUTES,
    );
    expect((await stateOf(client)).until).toBeNull();
    expect(outcome(await client.post(ACCOUNT_API.deleteAccount, {}))).toEqual(refused);

    // Just inside the minutes, it still counts.
    await reauthenticate(client, person);
    await api.age(
      'sessions',
      `reauthenticated_at = now() - $2::integer * interval '1 minute' + interval '5 seconds'`,
      person.email,
      REAUTHENTICATION_MINUTES,
    );
    expect((await client.post(ACCOUNT_API.deleteAccount, {})).status).toBe(200);
    expect(await api.db().query('SELECT 1 FROM accounts WHERE email = $1', [person.email])).toEqual([]);
  });

  it('comes back refused when the session that asked has ended meanwhile', async () => {
    const { client, person } = await passwordless();
    const started = await client.post(REAUTHENTICATION_API.start, { provider: 'test', returnTo: 'delete' });
    const back = await passProvider((started.body as unknown as ReauthenticateAnswer).url, person);
    await client.post(ACCOUNT_API.signOutEverywhere, {});
    expect(location(await client.fetch('GET', back.pathname + back.search))).toBe(
      '/en/account?oidc=OIDC_STATE_MISMATCH&confirmed=delete',
    );
  });

  it('sets a first password once confirmed at the provider; a password is changed only with the current one', async () => {
    const { client, person } = await passwordless();
    const newPassword = `Lantern-${randomBytes(4).toString('hex')}-orchard`;
    expect(outcome(await client.post(ACCOUNT_SETTINGS_API.changePassword, { newPassword }))).toEqual(refused);
    expect(await reauthenticate(client, person, 'password')).toBe(
      '/en/account?oidc=reauthenticated&confirmed=password',
    );
    expect((await client.post(ACCOUNT_SETTINGS_API.changePassword, { newPassword })).status).toBe(200);
    expect(await stateOf(client)).toMatchObject({ passwordless: false, until: null });
    const signIn = await api.client(app()).post(ACCOUNT_API.login, { email: person.email, password: newPassword });
    expect(signIn.body).toMatchObject({ status: 'signed-in' });

    // With a password now, a confirmation at the provider does not replace the current one.
    await reauthenticate(client, person, 'password');
    const again = await client.post(ACCOUNT_SETTINGS_API.changePassword, { newPassword: `${newPassword}-2` });
    expect([again.status, again.body]).toEqual([
      400,
      { error: { code: 'VALIDATION_ERROR', fields: { currentPassword: 'INVALID_PASSWORD' } } },
    ]);
  });

  it('keeps the password where the account has one: asked for, checked, and enough', async () => {
    const { client, person } = await api.member();
    const missing = await client.post(ACCOUNT_API.deleteAccount, {});
    expect([missing.status, missing.body]).toEqual([
      400,
      { error: { code: 'VALIDATION_ERROR', fields: { password: 'INVALID_PASSWORD' } } },
    ]);
    const wrong = await client.post(ACCOUNT_API.deleteAccount, { password: `${person.password}x` });
    expect([wrong.status, wrong.body]).toEqual([
      403,
      { error: { code: 'AUTHENTICATION_FAILED', fields: { password: 'AUTHENTICATION_FAILED' } } },
    ]);
    const email = await client.post(ACCOUNT_SETTINGS_API.emailChangeStart, { email: `new-${person.email}` });
    expect(email.status).toBe(400);
    expect((await client.post(ACCOUNT_API.deleteAccount, { password: person.password })).status).toBe(200);

    // An account without a password gets nowhere by sending one.
    const { client: noPassword } = await passwordless();
    expect((await noPassword.post(ACCOUNT_API.deleteAccount, { password: 'anything at all' })).status).toBe(403);
  });
});
