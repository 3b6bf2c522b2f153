import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACCOUNT_API, type LoginAnswer } from '#common/account-api.ts';
import { IDENTITY_API, type IdentitiesAnswer, type LinkAnswer } from '#common/identity-api.ts';
import { INBOX_API } from '#common/inbox-api.ts';
import type { ApiApp } from '#server/app.ts';
import { addPasskey, issueRecoveryCodes } from '#server/features/accounts/index.ts';
import { loadSiteConfig } from '#server/platform/site-config.ts';
import { describeApi, TEST_SECRET, type TestClient } from '#tests/support/api.ts';
import {
  newProviderPerson,
  type ProviderPerson,
  passProvider,
  startTestOidcProvider,
  TEST_OIDC_CLIENT,
  type TestOidcProvider,
  testProviderSettings,
} from '#tests/support/oidc-provider.ts';
import { codeFor, giveSecondFactor } from '#tests/support/second-factor.ts';

const site = await loadSiteConfig();
const CALLBACK = `${site.siteUrl}${IDENTITY_API.callback('test')}`;

/** Where an answer redirects to, as a path with its query (and fragment). */
const location = (response: Response) => {
  const url = new URL(response.headers.get('location') ?? '', site.siteUrl);
  return url.pathname + url.search + url.hash;
};

describeApi('sign-in with OpenID Connect', (api) => {
  let provider: TestOidcProvider;
  let shared: ApiApp;
  beforeAll(async () => {
    provider = await startTestOidcProvider([CALLBACK]);
  });
  afterAll(() => provider?.close());

  /** An app offering the test provider; discovery is cached per app, so a fresh one discovers again. */
  const appWithProvider = () =>
    api.app({
      settings: testProviderSettings(provider),
    });
  const app = () => {
    shared ??= appWithProvider();
    return shared;
  };

  /** Leaves for the provider from the sign-in page's link: the authorization address. */
  const leave = async (client: TestClient, language = 'en') => {
    const start = await client.fetch('GET', `${IDENTITY_API.start('test')}?lang=${language}`);
    expect(start.status).toBe(302);
    return start.headers.get('location') ?? '';
  };

  /** The whole way: the link, the provider's form, and back to the site. The site's last answer. */
  const signInWith = async (person: ProviderPerson | 'cancel', client: TestClient = api.client(app())) => {
    const back = await passProvider(await leave(client), person);
    const answer = await client.fetch('GET', back.pathname + back.search);
    expect(answer.status).toBe(303);
    return { client, answer, to: location(answer) };
  };

  const accountOf = async (email: string) =>
    (
      await api
        .db()
        .query<{ id: string; verified: boolean; hasPassword: boolean; phone: string | null; language: string }>(
          `SELECT id, verified_at IS NOT NULL AS verified, password_hash IS NOT NULL AS "hasPassword", phone, language
           FROM accounts WHERE email = $1`,
          [email],
        )
    )[0];
  const factorsOf = async (email: string) =>
    (
      await api
        .db()
        .query<{ factors: string[] }>(
          'SELECT factors FROM sessions WHERE account_id = (SELECT id FROM accounts WHERE email = $1) ORDER BY created_at',
          [email],
        )
    ).map((row) => row.factors);

  it('lists the configured providers for the sign-in page, and none when none are configured', async () => {
    expect((await api.client(app()).get(IDENTITY_API.providers)).body).toEqual({
      providers: [{ id: 'test', name: 'Test ID' }],
    });
    expect((await api.client().get(IDENTITY_API.providers)).body).toEqual({ providers: [] });
  });

  it('sends the browser to the provider with PKCE, state and nonce, and binds the state to this browser', async () => {
    const client = api.client(app());
    const url = new URL(await leave(client, 'de'));
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('client_id')).toBe(TEST_OIDC_CLIENT.id);
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('ui_locales')).toBe('de');
    expect(client.cookies.get('__Host-oidc')).toMatch(/^[\w-]{20,}$/);
  });

  it('makes an account for a new identity with a verified address, and signs the same identity in to it again', async () => {
    const person = newProviderPerson();
    const first = await signInWith(person);
    expect(first.to).toBe('/en/account');
    const account = await accountOf(person.email);
    expect(account).toMatchObject({ verified: true, hasPassword: false, phone: null, language: 'en' });
    expect((await first.client.get(ACCOUNT_API.account)).body).toMatchObject({
      name: 'Grace Hopper',
      email: person.email,
    });
    expect(first.client.cookies.has('__Host-oidc')).toBe(false);

    // Another browser, another day, a new address at the provider: the same account.
    const again = await signInWith({ ...person, email: `moved-${person.email}` });
    expect(again.to).toBe('/en/account');
    expect((await again.client.get(ACCOUNT_API.account)).body).toMatchObject({ email: person.email });
    expect(await factorsOf(person.email)).toEqual([['oidc'], ['oidc']]);
    const identities = (await again.client.get(IDENTITY_API.identities)).body as unknown as IdentitiesAnswer;
    expect(identities).toMatchObject({
      hasPassword: false,
      linkable: [],
      identities: [
        { provider: { id: 'test', name: 'Test ID' }, issuer: provider.issuer, email: `moved-${person.email}` },
      ],
    });
  });

  it('refuses to make an account when the provider has not verified the address', async () => {
    const person = newProviderPerson({ emailVerified: false });
    const { client, to } = await signInWith(person);
    expect(to).toBe('/en/login?oidc=OIDC_EMAIL_UNVERIFIED');
    expect(await accountOf(person.email)).toBeUndefined();
    expect((await client.get(ACCOUNT_API.session)).body).toEqual({ account: null });
  });

  it('never signs in to an account that has the address: its owner signs in first and links the identity', async () => {
    const { client: owner, person: member } = await api.member();
    const stranger = newProviderPerson({ email: member.email });
    const refused = await signInWith(stranger);
    expect(refused.to).toBe('/en/login?oidc=OIDC_ACCOUNT_EXISTS');
    expect((await refused.client.get(ACCOUNT_API.session)).body).toEqual({ account: null });
    expect(await api.db().query('SELECT 1 FROM account_identities WHERE subject = $1', [stranger.subject])).toEqual([]);

    // The owner links it from the account page (a call, not a link another site could send).
    const ownerHere = api.client(app());
    for (const [name, value] of owner.cookies) ownerHere.cookies.set(name, value);
    expect((await api.client(app()).post(IDENTITY_API.link, { provider: 'test', language: 'en' })).status).toBe(401);
    const link = await ownerHere.post(IDENTITY_API.link, { provider: 'test', language: 'en' });
    expect(link.status).toBe(200);
    const back = await passProvider((link.body as unknown as LinkAnswer).url, stranger);
    const linked = await ownerHere.fetch('GET', back.pathname + back.search);
    expect(location(linked)).toBe('/en/account?oidc=linked');

    const later = await signInWith(stranger);
    expect(later.to).toBe('/en/account');
    expect((await later.client.get(ACCOUNT_API.account)).body).toMatchObject({ email: member.email });
  });

  it('answers junk, a foreign browser, a cancel and a refused code with the sign-in page and a code, never an error', async () => {
    const bare = api.client(app());
    const callback = IDENTITY_API.callback('test');
    for (const query of ['', '?code=x&state=y', '?error=access_denied', `?${'a'.repeat(3000)}=1`]) {
      const answer = await bare.fetch('GET', callback + query);
      expect([answer.status, location(answer)]).toEqual([303, '/en/login?oidc=OIDC_STATE_MISMATCH']);
    }
    expect(location(await bare.fetch('GET', `${IDENTITY_API.start('nobody')}?lang=fr`))).toBe(
      '/fr/login?oidc=OIDC_PROVIDER_UNAVAILABLE',
    );

    // The provider's answer brought to another browser than the one that left: refused there.
    const leaving = api.client(app());
    const back = await passProvider(await leave(leaving, 'it'), newProviderPerson());
    const elsewhere = api.client(app());
    await leave(elsewhere, 'it');
    expect(location(await elsewhere.fetch('GET', back.pathname + back.search))).toBe(
      '/it/login?oidc=OIDC_STATE_MISMATCH',
    );
    // The right browser with the state changed, then with a code made up.
    const tampered = new URLSearchParams(back.search);
    tampered.set('state', 'not-the-state');
    expect(location(await leaving.fetch('GET', `${callback}?${tampered}`))).toBe('/it/login?oidc=OIDC_STATE_MISMATCH');
    const state = new URL(await leave(leaving, 'it')).searchParams.get('state') ?? '';
    expect(location(await leaving.fetch('GET', `${callback}?code=made-up&state=${state}`))).toBe(
      '/it/login?oidc=OIDC_FAILED',
    );

    expect((await signInWith('cancel')).to).toBe('/en/login?oidc=OIDC_DENIED');
    const denied = api.client(app());
    const deniedState = new URL(await leave(denied)).searchParams.get('state') ?? '';
    expect(location(await denied.fetch('GET', `${callback}?error=access_denied&state=${deniedState}`))).toBe(
      '/en/login?oidc=OIDC_DENIED',
    );
  });

  it('says the provider is down when it cannot be reached, on the way there and on the way back', async () => {
    const fresh = appWithProvider();
    provider.down();
    try {
      const answer = await api.client(fresh).fetch('GET', `${IDENTITY_API.start('test')}?lang=nl`);
      expect([answer.status, location(answer)]).toEqual([303, '/nl/login?oidc=OIDC_PROVIDER_UNAVAILABLE']);
    } finally {
      provider.up();
    }
    const client = api.client(fresh);
    const back = await passProvider(await leave(client), newProviderPerson());
    provider.down();
    try {
      expect(location(await client.fetch('GET', back.pathname + back.search))).toBe(
        '/en/login?oidc=OIDC_PROVIDER_UNAVAILABLE',
      );
    } finally {
      provider.up();
    }
  });

  it('unlinks an identity only while another way in remains', async () => {
    const person = newProviderPerson();
    const { client } = await signInWith(person);
    const [only] = ((await client.get(IDENTITY_API.identities)).body as unknown as IdentitiesAnswer).identities;
    expect((await client.post(IDENTITY_API.unlink, { id: only?.id })).body).toEqual({
      error: { code: 'LAST_SIGN_IN_METHOD' },
    });
    expect((await client.post(IDENTITY_API.unlink, { id: 'nonsense' })).status).toBe(400);
    expect((await client.post(IDENTITY_API.unlink, { id: crypto.randomUUID() })).status).toBe(404);
    expect((await api.client(app()).post(IDENTITY_API.unlink, { id: only?.id })).status).toBe(401);

    // With a password set, the identity can go; the password still signs in.
    await api.db().query(`UPDATE accounts SET password_hash = 'set' WHERE email = $1`, [person.email]);
    expect((await client.post(IDENTITY_API.unlink, { id: only?.id })).status).toBe(200);
    expect(((await client.get(IDENTITY_API.identities)).body as unknown as IdentitiesAnswer).identities).toEqual([]);
    expect((await signInWith(person)).to).toBe('/en/login?oidc=OIDC_ACCOUNT_EXISTS');
  });

  it('asks for the site’s second factor unless the provider reports one, and records what the session was made with', async () => {
    const person = newProviderPerson();
    await signInWith(person);
    const secret = await giveSecondFactor(api.db(), person.email, TEST_SECRET);

    const { client, to } = await signInWith(person);
    const [path, fragment = ''] = to.split('#');
    expect(path).toBe('/en/login');
    const offers = new URLSearchParams(fragment);
    // The page is told what the second step may take: the app here, no passkey.
    expect({ passkey: offers.get('passkey'), totp: offers.get('totp') }).toEqual({ passkey: '0', totp: '1' });
    const pending = offers.get('pending') ?? '';
    expect((await client.get(ACCOUNT_API.session)).body).toEqual({ account: null });
    const second = await client.post(ACCOUNT_API.loginSecondFactor, { pending, code: codeFor(secret) });
    expect((second.body as unknown as LoginAnswer).status).toBe('signed-in');

    const vouched = await signInWith({ ...person, amr: ['pwd', 'mfa'] });
    expect(vouched.to).toBe('/en/account');
    expect((await factorsOf(person.email)).slice(-2)).toEqual([
      ['oidc', 'totp'],
      ['oidc', 'oidc-mfa'],
    ]);
  });

  it('tells the second step of an account whose only second factor is a passkey to ask for a recovery code', async () => {
    const person = newProviderPerson();
    await signInWith(person);
    const [account] = await api.db().query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [person.email]);
    const accountId = account?.id ?? '';
    await addPasskey(api.db(), {
      accountId,
      credentialId: `cred-${person.subject}`,
      publicKey: 'key',
      counter: 0,
      transports: [],
      name: 'Phone',
    });
    const [code = ''] = await issueRecoveryCodes(TEST_SECRET, api.db(), accountId);

    const { client, to } = await signInWith(person);
    const offers = new URLSearchParams(to.split('#')[1]);
    expect({ passkey: offers.get('passkey'), totp: offers.get('totp') }).toEqual({ passkey: '1', totp: '0' });
    const second = await client.post(ACCOUNT_API.loginSecondFactor, { pending: offers.get('pending'), code });
    expect((second.body as unknown as LoginAnswer).status).toBe('signed-in');
    expect((await factorsOf(person.email)).at(-1)).toEqual(['oidc', 'recovery-code']);
  });

  it('lets staff into the console with a provider that reports a second factor, and not without one', async () => {
    const person = newProviderPerson();
    await signInWith(person);
    await api.db().query(`UPDATE accounts SET role = 'operator' WHERE email = $1`, [person.email]);
    const plain = await signInWith(person);
    expect((await plain.client.get(INBOX_API.messages)).body).toEqual({ error: { code: 'SECOND_FACTOR_REQUIRED' } });
    const strong = await signInWith({ ...person, amr: ['pwd', 'otp'] });
    expect((await strong.client.get(INBOX_API.messages)).status).toBe(200);
  });
});
