import { expect, it } from 'vitest';
import { ACCOUNT_API, CODE_MAX_ATTEMPTS } from '#common/account-api.ts';
import { describeApi, type TestClient } from '#tests/support/api.ts';
import { codeIn } from '#tests/support/people.ts';

/** A code that is not `code`. */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describeApi('email verification', (api) => {
  const isVerified = async (email: string) =>
    (
      await api
        .db()
        .query<{ v: boolean }>('SELECT verified_at IS NOT NULL AS v FROM accounts WHERE email = $1', [email])
    )[0]?.v;

  const sessionOf = async (client: TestClient) => (await client.get(ACCOUNT_API.session)).body;

  it('verifies the account and signs the visitor in, with a safe session cookie', async () => {
    const { client, person, code } = await api.registered();
    expect(await sessionOf(client)).toEqual({ account: null });
    const answer = await client.post(ACCOUNT_API.verify, { email: person.email, code });
    expect(answer).toMatchObject({ status: 200, body: { account: { name: person.name } } });
    expect(await isVerified(person.email)).toBe(true);

    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('__Host-session='));
    expect(cookie).toMatch(
      /^__Host-session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    // Readable by the pages, so they know to ask who is signed in; it holds nothing else.
    const hint = answer.headers.getSetCookie().find((line) => line.startsWith('signed_in='));
    expect(hint).toBe('signed_in=1; Max-Age=2592000; Path=/; Secure; SameSite=Lax');
    expect(await sessionOf(client)).toEqual({ account: { name: person.name } });
  });

  it('keeps only a hash of the session token', async () => {
    const { client, person, code } = await api.registered();
    await client.post(ACCOUNT_API.verify, { email: person.email, code });
    const token = client.cookies.get('__Host-session') ?? '';
    const rows = await api
      .db()
      .query<{ token_hash: string }>(
        'SELECT token_hash FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE a.email = $1',
        [person.email],
      );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).not.toBe(token);
    expect(rows[0]?.token_hash).not.toContain(token.slice(0, 16));
  });

  it('accepts the code with spaces and the address in capitals', async () => {
    const { client, person, code } = await api.registered();
    const answer = await client.post(ACCOUNT_API.verify, {
      email: person.email.toUpperCase(),
      code: `${code.slice(0, 3)} ${code.slice(3)}`,
    });
    expect(answer.status).toBe(200);
  });

  it('works once', async () => {
    const { client, person, code } = await api.registered();
    expect((await client.post(ACCOUNT_API.verify, { email: person.email, code })).status).toBe(200);
    const again = await api.client().post(ACCOUNT_API.verify, { email: person.email, code });
    expect(again).toMatchObject({
      status: 400,
      body: { error: { code: 'VERIFICATION_FAILED', fields: { code: 'VERIFICATION_FAILED' } } },
    });
  });

  it('lets exactly one of many simultaneous uses of the right code through', async () => {
    const { person, code } = await api.registered();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => api.client().post(ACCOUNT_API.verify, { email: person.email, code })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array(7).fill(400)]);
  });

  it(`needs a new code after ${CODE_MAX_ATTEMPTS} wrong ones, and the new one works`, async () => {
    const { client, person, code } = await api.registered();
    for (let attempt = 0; attempt < CODE_MAX_ATTEMPTS; attempt++) {
      const wrong = await client.post(ACCOUNT_API.verify, { email: person.email, code: otherThan(code) });
      expect(wrong).toMatchObject({ status: 400, body: { error: { code: 'VERIFICATION_FAILED' } } });
    }
    const spent = await client.post(ACCOUNT_API.verify, { email: person.email, code });
    expect(spent).toMatchObject({ status: 400, body: { error: { code: 'VERIFICATION_FAILED' } } });
    expect(await isVerified(person.email)).toBe(false);

    expect((await client.post(ACCOUNT_API.resendCode, { email: person.email, language: 'de' })).status).toBe(202);
    const mail = await api.mail().waitFor(person.email, 1);
    expect(mail.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse für Your Company');
    const fresh = codeIn(mail.text);
    if (fresh !== code) {
      expect((await client.post(ACCOUNT_API.verify, { email: person.email, code })).status).toBe(400);
    }
    expect((await client.post(ACCOUNT_API.verify, { email: person.email, code: fresh })).status).toBe(200);
  });

  it('counts wrong tries made at the same time exactly', async () => {
    const { person, code } = await api.registered();
    await Promise.all(
      Array.from({ length: 12 }, () =>
        api.client().post(ACCOUNT_API.verify, { email: person.email, code: otherThan(code) }),
      ),
    );
    const [row] = await api
      .db()
      .query<{ attempts: number }>(
        'SELECT attempts FROM account_codes c JOIN accounts a ON a.id = c.account_id WHERE a.email = $1',
        [person.email],
      );
    expect(row?.attempts).toBe(CODE_MAX_ATTEMPTS);
    expect((await api.client().post(ACCOUNT_API.verify, { email: person.email, code })).status).toBe(400);
  });

  it('refuses a code after its ten minutes', async () => {
    const { client, person, code } = await api.registered();
    await api.age('account_codes', "expires_at = now() - interval '1 second'", person.email);
    expect((await client.post(ACCOUNT_API.verify, { email: person.email, code })).status).toBe(400);
  });

  it('says the same about an unknown address as about a wrong code', async () => {
    const answer = await api.client().post(ACCOUNT_API.verify, { email: 'nobody@example.com', code: '123456' });
    expect(answer).toMatchObject({
      status: 400,
      body: { error: { code: 'VERIFICATION_FAILED', fields: { code: 'VERIFICATION_FAILED' } } },
    });
  });

  it('checks the form of the code', async () => {
    const answer = await api.client().post(ACCOUNT_API.verify, { email: 'a@example.com', code: '12ab' });
    expect(answer.body).toEqual({ error: { code: 'VALIDATION_ERROR', fields: { code: 'VERIFICATION_FAILED' } } });
  });

  it('limits new codes per address, with Retry-After, and says nothing about unknown ones', async () => {
    const { client, person } = await api.registered();
    expect((await client.post(ACCOUNT_API.resendCode, { email: person.email })).status).toBe(202);
    const refused = await client.post(ACCOUNT_API.resendCode, { email: person.email });
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'TOO_MANY_REQUESTS' } } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The limit is the address's, so another browser cannot get round it.
    expect((await api.client().post(ACCOUNT_API.resendCode, { email: person.email })).status).toBe(429);

    const unknown = await client.post(ACCOUNT_API.resendCode, { email: 'nobody-at-all@example.com' });
    expect(unknown).toMatchObject({ status: 202, body: {} });
  });

  it('sends no code to an account that is already verified', async () => {
    const { client, person, code } = await api.registered();
    await client.post(ACCOUNT_API.verify, { email: person.email, code });
    expect((await client.post(ACCOUNT_API.resendCode, { email: person.email })).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(api.mail().mails.filter((mail) => mail.to.includes(person.email))).toHaveLength(1);
  });
});
