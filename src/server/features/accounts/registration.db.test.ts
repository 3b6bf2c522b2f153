import { expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { accountPerson, describeApi } from '#tests/support/api.ts';
import { codeIn } from '#tests/support/people.ts';
import { LIMITS } from './limits.ts';

describeApi('registration', (api) => {
  const accountsWith = (email: string) =>
    api.db().query<{
      name: string;
      phone: string;
      password_hash: string;
      verified_at: Date | null;
      language: string;
    }>('SELECT name, phone, password_hash, verified_at, language FROM accounts WHERE email = $1', [email]);

  it('creates an unverified account and mails a code in the visitor’s language', async () => {
    const person = accountPerson({ email: ' Somchai.Jaidee@Example.COM ', name: 'สมชาย ใจดี', language: 'th' });
    const email = 'somchai.jaidee@example.com';
    const answer = await api.client().post(ACCOUNT_API.register, person);
    expect(answer).toMatchObject({ status: 201, body: { email } });

    const [account] = await accountsWith(email);
    expect(account).toMatchObject({ name: 'สมชาย ใจดี', verified_at: null, language: 'th' });
    expect(account?.phone).toMatch(/^\+4474\d{8}$/);
    expect(account?.password_hash).toMatch(/^\$argon2id\$v=19\$/);
    expect(account?.password_hash).not.toContain(person.password);

    const mail = await api.mail().waitFor(email);
    expect(mail.subject).toBe('ยืนยันอีเมลของคุณสำหรับ Your Company');
    expect(mail.headers['content-language']).toBe('th');
    expect(mail.text).toContain('สวัสดีคุณสมชาย ใจดี');
    const code = codeIn(mail.text);
    expect(mail.text).toContain(`http://localhost:3000/th/validation#email=somchai.jaidee%40example.com&code=${code}`);
    expect(mail.html).toContain('<html lang="th">');
    expect(mail.html).toContain(`>${code}</p>`);
    expect(mail.text).toContain('รหัสนี้ใช้ได้ 10 นาที');
    expect(mail.text).not.toContain('{{');
  });

  it('keeps only a keyed hash of the code', async () => {
    const person = accountPerson();
    await api.client().post(ACCOUNT_API.register, person);
    const code = codeIn((await api.mail().waitFor(person.email)).text);
    const [row] = await api
      .db()
      .query<{ code_hash: string; attempts: number }>(
        'SELECT code_hash, attempts FROM account_codes c JOIN accounts a ON a.id = c.account_id WHERE a.email = $1',
        [person.email],
      );
    expect(row?.attempts).toBe(0);
    expect(row?.code_hash).not.toContain(code);
    expect(row?.code_hash).toHaveLength(43);
  });

  it('keeps names from every script exactly, SQL-looking ones too, and escapes them in mail', async () => {
    for (const name of ["Robert'); DROP TABLE accounts;--", 'Zoë Ångström-Łukasiewicz', '李小龍', 'O’Brien & Sons']) {
      const person = accountPerson({ name });
      expect((await api.client().post(ACCOUNT_API.register, person)).status).toBe(201);
      expect((await accountsWith(person.email))[0]?.name).toBe(name);
      const mail = await api.mail().waitFor(person.email);
      if (name.includes('&')) expect(mail.html).toContain('O’Brien &amp; Sons');
    }
    expect(await api.db().query('SELECT count(*)::integer AS n FROM accounts')).not.toEqual([{ n: 0 }]);
  });

  it('names every field that breaks a rule', async () => {
    const answer = await api.client().post(ACCOUNT_API.register, {
      name: '<b>Eve</b>',
      email: 'not-an-address',
      phone: '+44 12',
      password: 'short',
      acceptTerms: false,
    });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 'VALIDATION_ERROR',
          fields: {
            name: 'INVALID_NAME',
            email: 'INVALID_EMAIL',
            phone: 'INVALID_PHONE',
            password: 'INVALID_PASSWORD',
            acceptTerms: 'MISSING_REQUIRED_FIELD',
          },
        },
      },
    });
    const empty = await api.client().post(ACCOUNT_API.register, {});
    expect(empty.body).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        fields: {
          name: 'MISSING_REQUIRED_FIELD',
          email: 'MISSING_REQUIRED_FIELD',
          phone: 'MISSING_REQUIRED_FIELD',
          password: 'MISSING_REQUIRED_FIELD',
          acceptTerms: 'MISSING_REQUIRED_FIELD',
        },
      },
    });
  });

  it('reads a national phone number in the country chosen beside it, and refuses an unknown country', async () => {
    const person = accountPerson({ phone: '081 234 5678' });
    const national = await api.client().post(ACCOUNT_API.register, { ...person, phoneCountry: 'TH' });
    expect(national.status).toBe(201);
    expect((await accountsWith(person.email))[0]?.phone).toBe('+66812345678');

    const other = accountPerson({ phone: '030 1234567' });
    const unknown = await api.client().post(ACCOUNT_API.register, { ...other, phoneCountry: 'Germany' });
    expect(unknown).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR' } } });
    expect(Object.keys((unknown.body as { error: { fields: object } }).error.fields)).toContain('phoneCountry');
    const tooShort = await api.client().post(ACCOUNT_API.register, { ...other, phone: '030 12', phoneCountry: 'DE' });
    expect(tooShort.body).toMatchObject({ error: { fields: { phone: 'INVALID_PHONE' } } });
    expect(await accountsWith(other.email)).toEqual([]);
  });

  it('refuses one of the most common passwords, whatever its case, and creates nothing', async () => {
    for (const password of ['password123', 'Iloveyou1', 'QWERTYUIOP']) {
      const person = accountPerson({ password });
      const answer = await api.client().post(ACCOUNT_API.register, person);
      expect(answer).toMatchObject({
        status: 400,
        body: { error: { code: 'PASSWORD_TOO_COMMON', fields: { password: 'PASSWORD_TOO_COMMON' } } },
      });
      expect(await accountsWith(person.email)).toEqual([]);
    }
    const uncommon = accountPerson({ password: 'a walk along the klong' });
    expect((await api.client().post(ACCOUNT_API.register, uncommon)).status).toBe(201);
  });

  it('refuses a taken email address, however it is written', async () => {
    const first = accountPerson();
    await api.client().post(ACCOUNT_API.register, first);
    const again = await api.client().post(ACCOUNT_API.register, accountPerson({ email: first.email.toUpperCase() }));
    expect(again).toMatchObject({
      status: 409,
      body: { error: { code: 'EMAIL_ALREADY_EXISTS', fields: { email: 'EMAIL_ALREADY_EXISTS' } } },
    });
  });

  it('refuses a taken phone number, however it is written', async () => {
    const first = accountPerson({ phone: '+1 (415) 555-0132' });
    await api.client().post(ACCOUNT_API.register, first);
    const again = await api.client().post(ACCOUNT_API.register, accountPerson({ phone: '0014155550132' }));
    expect(again).toMatchObject({
      status: 409,
      body: { error: { code: 'PHONE_ALREADY_EXISTS', fields: { phone: 'PHONE_ALREADY_EXISTS' } } },
    });
  });

  it('leaves exactly one account when many register the same email at once', async () => {
    const email = accountPerson().email;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => api.client().post(ACCOUNT_API.register, accountPerson({ email }))),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, ...Array(11).fill(409)]);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(answer.body).toMatchObject({ error: { code: 'EMAIL_ALREADY_EXISTS' } });
    }
    expect(await accountsWith(email)).toHaveLength(1);
  });

  it('leaves exactly one account when many register the same phone at once', async () => {
    const phone = '+81 3 1234 5678';
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => api.client().post(ACCOUNT_API.register, accountPerson({ phone }))),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect(answer).toMatchObject({ status: 409, body: { error: { code: 'PHONE_ALREADY_EXISTS' } } });
    }
    const [row] = await api
      .db()
      .query<{ n: number }>("SELECT count(*)::integer AS n FROM accounts WHERE phone = '+81312345678'");
    expect(row?.n).toBe(1);
  });

  it('creates nothing when the honeypot is filled in', async () => {
    const person = accountPerson({ website: 'https://spam.example' });
    const answer = await api.client().post(ACCOUNT_API.register, person);
    expect(answer).toMatchObject({ status: 400, body: { error: { code: 'REGISTRATION_FAILED' } } });
    expect(await accountsWith(person.email)).toEqual([]);
  });

  it('answers at once while the mail server is down, and the code arrives once it is back', async () => {
    const restore = api.mailVia({ send: () => Promise.reject(new Error('SMTP down')) });
    const client = api.client();
    const person = accountPerson();
    try {
      expect((await client.post(ACCOUNT_API.register, person)).status).toBe(201);
      await api.runJobs();
      expect(api.mail().mails.filter((mail) => mail.to.includes(person.email))).toEqual([]);
    } finally {
      restore();
    }
    // The retry comes after a wait; here it is due at once.
    await api.db().query("UPDATE jobs SET run_at = now() WHERE payload->>'to' = $1", [person.email]);
    const code = codeIn((await api.mail().waitFor(person.email)).text);
    expect((await client.post(ACCOUNT_API.verify, { email: person.email, code })).status).toBe(200);
  });

  it('limits registrations per client, with Retry-After', async () => {
    const client = api.client();
    const { hits: limit } = LIMITS.registerPerClient;
    for (let n = 0; n < limit; n++) {
      // Invalid registrations are not counted: only real attempts are.
      expect((await client.post(ACCOUNT_API.register, accountPerson({ password: 'x' }))).status).toBe(400);
    }
    for (let n = 0; n < limit; n++) {
      expect((await client.post(ACCOUNT_API.register, accountPerson())).status).toBe(201);
    }
    const refused = await client.post(ACCOUNT_API.register, accountPerson());
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'TOO_MANY_REQUESTS' } } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is not affected.
    expect((await api.client().post(ACCOUNT_API.register, accountPerson())).status).toBe(201);
  });
});
