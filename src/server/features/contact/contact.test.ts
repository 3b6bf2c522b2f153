import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { CONTACT_API, CONTACT_MIN_FILL_SECONDS } from '#common/contact-api.ts';
import { NAME_MAX_LENGTH } from '#common/field-bounds.ts';
import type { ApiApp } from '#server/app.ts';
import { smtpMailer } from '#server/platform/mail/mailer.ts';
import { describeApi, freshAddress, ORIGIN, TEST_SECRET } from '#tests/support/api.ts';
import { CONTACT_MAIL_JOB, pruneMessages } from './contact-queries.ts';
import { checkFormToken, issueFormToken } from './form-token.ts';
import { CONTACT_LIMITS } from './limits.ts';

const tag = () => randomBytes(4).toString('hex');
/** A token issued long enough ago that the message counts as typed by a person. */
const agedToken = () => issueFormToken(TEST_SECRET, Date.now() - 20_000);

/** A message as the page's script sends it. */
const message = (overrides: Record<string, unknown> = {}) => ({
  name: `Grace Hopper ${tag()}`,
  email: `grace-${tag()}@example.com`,
  subject: 'question',
  message: 'I would like to know more about how you work.',
  language: 'en',
  page: '/en/contact',
  token: agedToken(),
  ...overrides,
});

interface Stored {
  id: string;
  status: string;
  spam_reason: string | null;
  name: string;
  body: string;
  language: string;
  page: string | null;
  account_id: string | null;
}

describeApi('the contact form', (api) => {
  /** An app of its own, announcing messages to an address no other test uses. */
  const teamApp = (settings: Record<string, unknown> = {}) => {
    const team = `team-${tag()}@example.com`;
    return { team, app: api.app({ settings: { contactEmail: team, ...settings } }) };
  };
  const stored = async (email: string) =>
    api
      .db()
      .query<Stored>(
        'SELECT id, status, spam_reason, name, body, language, page, account_id FROM contact_messages WHERE email = $1 ORDER BY created_at',
        [email],
      );
  /** A plain HTML form post, as a browser without JavaScript sends it. */
  const formPost = (app: ApiApp, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    app.request(CONTACT_API.messages, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: ORIGIN,
        'X-Forwarded-For': freshAddress(),
        ...headers,
      },
    });
  /** Runs the jobs until none is left due, so a mail that was going to be sent has been. */
  const settle = async () => {
    while ((await api.runJobs()) > 0);
  };

  it('hands out a signed time stamp that it accepts back', async () => {
    const answer = await api.client().get(CONTACT_API.formToken);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const token = String(answer.body.token);
    expect(checkFormToken(TEST_SECRET, token)).toMatchObject({ valid: true });
    expect(
      checkFormToken(
        TEST_SECRET,
        token.replace(/^\d+/, (s) => String(Number(s) - 60)),
      ),
    ).toEqual({
      valid: false,
    });
    expect(checkFormToken(Buffer.alloc(32, 1), token)).toEqual({ valid: false });
  });

  it('stores a message from the page and mails the team once, in the same transaction', async () => {
    const { team, app } = teamApp();
    const sent = message({
      message: 'Hello!\r\n\r\nCould you <b>help</b> me with my account?',
      language: 'it',
      page: '/it/contact',
    });
    const answer = await api.client(app).post(CONTACT_API.messages, sent);
    expect(answer).toMatchObject({ status: 202, body: { status: 'received' } });
    expect(answer.headers.get('cache-control')).toBe('no-store');

    const [row] = await stored(sent.email);
    expect(row).toMatchObject({
      status: 'new',
      spam_reason: null,
      name: sent.name,
      body: 'Hello!\n\nCould you <b>help</b> me with my account?',
      language: 'it',
      page: '/it/contact',
      account_id: null,
    });
    const mail = await api.mail().waitFor(team);
    expect(mail.subject).toBe(`[Your Company] A general question – a message from ${sent.name}`);
    expect(mail.headers['reply-to']).toBe(sent.email);
    expect(mail.text).toContain('Could you <b>help</b> me with my account?');
    expect(mail.text).toContain('Language: Italiano');
    expect(mail.text).toContain('Page: http://localhost:3000/it/contact');
    expect(mail.text).toContain(`http://localhost:3000/console/messages/${row?.id}`);
    expect(mail.html).toContain('Could you &lt;b&gt;help&lt;/b&gt; me');
    expect(mail.html).not.toContain('<b>help</b>');
    await settle();
    expect(api.mail().mails.filter((m) => m.to.includes(team))).toHaveLength(1);
  });

  it('takes a plain form post without JavaScript and redirects to the confirmation page', async () => {
    const { team, app } = teamApp();
    const sent = message({ language: 'de', page: '/de/contact' });
    const { token: _, ...fields } = sent;
    const response = await formPost(app, fields);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/de/contact/sent');
    expect(await stored(sent.email)).toEqual([expect.objectContaining({ status: 'new', language: 'de' })]);
    expect((await api.mail().waitFor(team)).subject).toContain(sent.name);
  });

  it('says which field is wrong, for every field, and stores nothing', async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ name: undefined }, { name: 'MISSING_REQUIRED_FIELD' }],
      [{ name: '   ' }, { name: 'MISSING_REQUIRED_FIELD' }],
      [{ name: 'Eve\r\nBcc: victim@example.com' }, { name: 'INVALID_NAME' }],
      [{ name: '<script>alert(1)</script>' }, { name: 'INVALID_NAME' }],
      [{ name: 'x'.repeat(101) }, { name: 'INVALID_NAME' }],
      [{ name: 12 }, { name: 'INVALID_NAME' }],
      [{ email: 'not an address' }, { email: 'INVALID_EMAIL' }],
      [{ email: 'eve@example.com\r\nBcc: victim@example.com' }, { email: 'INVALID_EMAIL' }],
      [{ email: `${'a'.repeat(250)}@example.com` }, { email: 'INVALID_EMAIL' }],
      [{ subject: undefined }, { subject: 'MISSING_REQUIRED_FIELD' }],
      [{ subject: 'question\r\nBcc: victim@example.com' }, { subject: 'INVALID_SUBJECT' }],
      [{ subject: "question' OR 1=1 --" }, { subject: 'INVALID_SUBJECT' }],
      [{ subject: ['question'] }, { subject: 'INVALID_SUBJECT' }],
      [{ message: undefined }, { message: 'MISSING_REQUIRED_FIELD' }],
      [{ message: ' \n\t ' }, { message: 'MISSING_REQUIRED_FIELD' }],
      [{ message: 'Too short' }, { message: 'MESSAGE_TOO_SHORT' }],
      [{ message: 'x'.repeat(5001) }, { message: 'MESSAGE_TOO_LONG' }],
      [{ message: { text: 'an object' } }, { message: 'INVALID_REQUEST' }],
      [{ language: 'xx' }, { language: 'INVALID_REQUEST' }],
      [{ page: 'https://evil.example/' }, { page: 'INVALID_REQUEST' }],
      [{ page: '/en/nowhere' }, { page: 'INVALID_REQUEST' }],
      [{ website: 'x'.repeat(501) }, { website: 'INVALID_REQUEST' }],
      [{ token: 'x'.repeat(201) }, { token: 'INVALID_REQUEST' }],
    ];
    for (const [change, fields] of cases) {
      const sent = message(change);
      const answer = await api.client().post(CONTACT_API.messages, sent);
      expect(answer, JSON.stringify(change).slice(0, 80)).toMatchObject({
        status: 400,
        body: { error: { code: 'VALIDATION_ERROR', fields } },
      });
      expect(await stored(sent.email)).toEqual([]);
    }
  });

  it('answers malformed, foreign and oversized requests with a 4xx, never a 5xx', async () => {
    const client = api.client();
    const send = (body: string, headers: Record<string, string> = {}) =>
      client.request('POST', CONTACT_API.messages, body, { 'Content-Type': 'application/json', ...headers });
    expect(await send('{"name": ')).toMatchObject({ status: 400, body: { error: { code: 'INVALID_REQUEST' } } });
    expect(await send('[1, 2, 3]')).toMatchObject({ status: 400, body: { error: { code: 'INVALID_REQUEST' } } });
    expect(await send('null')).toMatchObject({ status: 400, body: { error: { code: 'INVALID_REQUEST' } } });
    expect(await send('"a string"')).toMatchObject({ status: 400 });
    expect(await send(JSON.stringify(message({ message: 'x'.repeat(200_000) })))).toMatchObject({
      status: 413,
      body: { error: { code: 'MESSAGE_TOO_LONG' } },
    });
    expect((await send(JSON.stringify(message()), { 'Content-Type': 'text/plain' })).status).toBe(415);
    expect((await send(JSON.stringify(message()), { 'Content-Type': 'multipart/form-data; boundary=x' })).status).toBe(
      415,
    );
    expect((await send(JSON.stringify(message()), { Origin: 'https://evil.example' })).status).toBe(403);
    const foreignForm = await formPost(api.app(), { ...message(), token: '' } as Record<string, string>, {
      Origin: 'https://evil.example',
    });
    expect(foreignForm.status).toBe(403);
    expect((await client.request('PUT', CONTACT_API.messages, JSON.stringify(message()))).status).toBe(404);
  });

  it('keeps text from every script exactly, drops control characters, and stores SQL as text', async () => {
    const bodies: [string, string][] = [
      [
        "Robert'); DROP TABLE contact_messages;-- and some more words",
        "Robert'); DROP TABLE contact_messages;-- and some more words",
      ],
      ['สวัสดีครับ ผมอยากสอบถามเรื่องบัญชีของผม', 'สวัสดีครับ ผมอยากสอบถามเรื่องบัญชีของผม'],
      ['مرحبا، لدي سؤال عن الموقع \u202eevil', 'مرحبا، لدي سؤال عن الموقع \u202eevil'],
      ['Zoe\u0308 writes with combining marks here', 'Zoë writes with combining marks here'],
      ['nul\u0000 and bell\u0007 and escape\u001b[31m are gone', 'nul and bell and escape[31m are gone'],
      ['a lone \ud800 surrogate half is replaced', 'a lone \ufffd surrogate half is replaced'],
      ['🙂'.repeat(5000), '🙂'.repeat(5000)],
    ];
    for (const [body, kept] of bodies) {
      const sent = message({ message: body });
      expect((await api.client().post(CONTACT_API.messages, sent)).status, body.slice(0, 20)).toBe(202);
      expect((await stored(sent.email))[0]?.body).toBe(kept);
    }
    expect((await api.client().post(CONTACT_API.messages, message({ message: '🙂'.repeat(5001) }))).status).toBe(400);
  });

  it('answers a refused plain form post with a page in the visitor’s language that says what to change', async () => {
    const sent = message({
      name: '<img src=x onerror=alert(1)>',
      message: 'short',
      language: 'fr',
      page: '/fr/contact',
    });
    const { token: _, ...fields } = sent;
    const response = await formPost(api.app(), fields);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('<html lang="fr" dir="ltr">');
    expect(html).toContain('Votre message n’a pas été envoyé');
    expect(html).toContain('Votre nom');
    // The name's error in its plural form with the number filled in, as the browser shows it.
    expect(html).toContain(`Veuillez saisir votre nom, en ${NAME_MAX_LENGTH} caractères au plus.`);
    expect(html).not.toContain('INVALID_NAME');
    expect(html).toContain('Veuillez en écrire un peu plus');
    expect(html).toContain('href="/fr/contact"');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(await stored(sent.email)).toEqual([]);
  });

  it('stores what looks like spam as spam, answers it like any message, and mails nobody', async () => {
    const { team, app } = teamApp();
    // Tokens are made as each message goes out, so that their age is what the case says.
    const cases: [() => Record<string, unknown>, string][] = [
      [() => ({ website: 'https://spam.example' }), 'honeypot'],
      [() => ({ token: issueFormToken(TEST_SECRET, Date.now() - (CONTACT_MIN_FILL_SECONDS - 2) * 1000) }), 'too-fast'],
      [() => ({ token: issueFormToken(Buffer.alloc(32, 9), Date.now() - 20_000) }), 'bad-token'],
      [() => ({ token: '123.not-a-signature' }), 'bad-token'],
      [() => ({ token: issueFormToken(TEST_SECRET, Date.now() - 25 * 60 * 60 * 1000) }), 'stale-token'],
      [() => ({ token: undefined }), 'no-token'],
      [() => ({ message: 'Cheap pills http://a.example http://b.example www.c.example [url=d]x[/url]' }), 'links'],
    ];
    for (const [change, reason] of cases) {
      const sent = message(change());
      const answer = await api.client(app).post(CONTACT_API.messages, sent);
      expect(answer, reason).toMatchObject({ status: 202, body: { status: 'received' } });
      expect(await stored(sent.email)).toEqual([expect.objectContaining({ status: 'spam', spam_reason: reason })]);
    }
    const honeypotForm = message({ website: 'filled by a robot' });
    const { token: _, ...fields } = honeypotForm;
    const response = await formPost(app, fields as Record<string, string>);
    expect(response.status).toBe(303);
    expect((await stored(honeypotForm.email))[0]).toMatchObject({ status: 'spam', spam_reason: 'honeypot' });

    // A person sends one real message after all of that: only it reaches the team.
    const real = message();
    await api.client(app).post(CONTACT_API.messages, real);
    await api.mail().waitFor(team);
    await settle();
    const mails = api.mail().mails.filter((mail) => mail.to.includes(team));
    expect(mails.map((mail) => mail.subject)).toEqual([expect.stringContaining(real.name)]);
    const [jobs] = await api
      .db()
      .query<{ n: number }>('SELECT count(*)::integer AS n FROM jobs WHERE kind = $1', [CONTACT_MAIL_JOB]);
    expect(jobs?.n).toBe(0);
  });

  it('takes a plain form post without a time stamp as a person’s, since the page cannot give one without script', async () => {
    const sent = message();
    const { token: _, ...fields } = sent;
    expect((await formPost(api.app(), fields)).status).toBe(303);
    expect((await stored(sent.email))[0]).toMatchObject({ status: 'new', spam_reason: null });
  });

  it('limits messages per client address', async () => {
    const app = api.app({ settings: { contactRateLimit: 2 } });
    const client = api.client(app);
    expect((await client.post(CONTACT_API.messages, message())).status).toBe(202);
    // Refused and spam posts count too: a robot gets no further by being recognised.
    expect((await client.post(CONTACT_API.messages, message({ name: '' }))).status).toBe(400);
    const refused = await client.post(CONTACT_API.messages, message());
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'TOO_MANY_REQUESTS' } } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api.client(app).post(CONTACT_API.messages, message())).status).toBe(202);
  });

  it('limits messages per sender address, whichever client sends them', async () => {
    const email = `flood-${tag()}@example.com`;
    for (let i = 0; i < CONTACT_LIMITS.contactPerAddress.hits; i++) {
      expect((await api.client().post(CONTACT_API.messages, message({ email }))).status).toBe(202);
    }
    const refused = await api.client().post(CONTACT_API.messages, message({ email: email.toUpperCase() }));
    expect(refused.status).toBe(429);
    expect(await stored(email)).toHaveLength(CONTACT_LIMITS.contactPerAddress.hits);
  });

  it('answers a plain form post over the limit with a page, status 429 and Retry-After', async () => {
    const app = api.app({ settings: { contactRateLimit: 1 } });
    const address = freshAddress();
    const { token: _, ...fields } = message({ language: 'nl', page: '/nl/contact' });
    expect((await formPost(app, fields, { 'X-Forwarded-For': address })).status).toBe(303);
    const refused = await formPost(
      app,
      { ...fields, email: `other-${tag()}@example.com` },
      { 'X-Forwarded-For': address },
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain('Je hebt in korte tijd meerdere berichten verstuurd');
  });

  it('keeps the team’s mail while the mail server is down and delivers it once when it is back', async () => {
    await settle();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const restore = api.mailVia(smtpMailer(`smtp://127.0.0.1:${port}`, 'no-reply@example.com'));
    const { team, app } = teamApp();
    const sent = message();
    try {
      expect((await api.client(app).post(CONTACT_API.messages, sent)).status).toBe(202);
      await settle();
      const [job] = await api
        .db()
        .query<{ attempts: number; last_error: string | null }>(
          `SELECT attempts, last_error FROM jobs WHERE kind = $1 AND payload->'mail'->>'to' = $2`,
          [CONTACT_MAIL_JOB, team],
        );
      expect(job?.attempts).toBeGreaterThanOrEqual(1);
      expect(job?.last_error).toBeTruthy();
    } finally {
      restore();
    }
    await api
      .db()
      .query(`UPDATE jobs SET run_at = statement_timestamp() WHERE kind = $1 AND payload->'mail'->>'to' = $2`, [
        CONTACT_MAIL_JOB,
        team,
      ]);
    expect((await api.mail().waitFor(team)).subject).toContain(sent.name);
    await settle();
    expect(api.mail().mails.filter((mail) => mail.to.includes(team))).toHaveLength(1);
    expect((await stored(sent.email))[0]?.status).toBe('new');
  });

  it('deletes messages with the account they belong to', async () => {
    const { client, person } = await api.member();
    const signedIn = message({ email: `another-${tag()}@example.com` });
    expect((await client.post(CONTACT_API.messages, signedIn)).status).toBe(202);
    // Sent signed out, but from the address of a confirmed account.
    const sameAddress = message({ email: person.email });
    expect((await api.client().post(CONTACT_API.messages, sameAddress)).status).toBe(202);
    const [account] = await api.db().query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [person.email]);
    expect((await stored(signedIn.email))[0]?.account_id).toBe(account?.id);
    expect((await stored(person.email))[0]?.account_id).toBe(account?.id);
    // A stranger's message stays.
    const stranger = message();
    await api.client().post(CONTACT_API.messages, stranger);

    expect((await client.post(ACCOUNT_API.deleteAccount, { password: person.password })).status).toBe(200);
    expect(await stored(signedIn.email)).toEqual([]);
    expect(await stored(person.email)).toEqual([]);
    expect(await stored(stranger.email)).toHaveLength(1);
  });

  it('deletes messages after the retention period, counted from their last activity, and spam sooner', async () => {
    const kept = message();
    const old = message();
    const oldSpam = message({ website: 'robot' });
    const recentSpam = message({ website: 'robot' });
    for (const sent of [kept, old, oldSpam, recentSpam]) await api.client().post(CONTACT_API.messages, sent);
    const age = (email: string, days: number) =>
      api.db().query(
        `UPDATE contact_messages SET created_at = now() - $2::integer * interval '1 day',
             last_activity_at = now() - $2::integer * interval '1 day' WHERE email = $1`,
        [email, days],
      );
    await age(old.email, 366);
    await age(kept.email, 300);
    await age(oldSpam.email, 31);
    await age(recentSpam.email, 10);
    await api.db().query(`UPDATE jobs SET run_at = now() + interval '1 hour' WHERE kind = $1`, [CONTACT_MAIL_JOB]);

    expect(await pruneMessages(api.db(), 365, 30)).toBeGreaterThanOrEqual(2);
    expect(await stored(old.email)).toEqual([]);
    expect(await stored(oldSpam.email)).toEqual([]);
    expect(await stored(kept.email)).toHaveLength(1);
    expect(await stored(recentSpam.email)).toHaveLength(1);
    const waiting = await api
      .db()
      .query(`SELECT 1 FROM jobs WHERE kind = $1 AND payload->'mail'->>'replyTo' = $2`, [CONTACT_MAIL_JOB, old.email]);
    expect(waiting).toEqual([]);
    await api.db().query(`UPDATE jobs SET run_at = now() WHERE kind = $1`, [CONTACT_MAIL_JOB]);
  });
});
