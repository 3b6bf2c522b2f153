import { randomBytes, randomUUID } from 'node:crypto';
import { expect, it, vi } from 'vitest';
import { withId } from '#common/api-paths.ts';
import { CONTACT_API } from '#common/contact-api.ts';
import { INBOX_API, type MessageDetail, type MessagesAnswer } from '#common/inbox-api.ts';
import type { StaffRole } from '#common/roles.ts';
import { STAFF_API } from '#common/staff-api.ts';
import { outboxMailer } from '#server/platform/mail/mailer.ts';
import { outboxFor } from '#server/platform/mail/outbox.ts';
import { describeApi, TEST_SECRET, type TestClient } from '#tests/support/api.ts';
import { captureLog } from '#tests/support/log.ts';
import { giveSecondFactor } from '#tests/support/second-factor.ts';
import { CONTACT_MAIL_JOB } from './contact-queries.ts';
import { issueFormToken } from './form-token.ts';

const tag = () => randomBytes(4).toString('hex');

describeApi('the console inbox', (api) => {
  /** A signed-in member made staff with `role`. */
  const staff = async (role: StaffRole = 'operator') => {
    const member = await api.member();
    await api.db().query('UPDATE accounts SET role = $2 WHERE email = $1', [member.person.email, role]);
    await giveSecondFactor(api.db(), member.person.email);
    return member;
  };
  /** A message sent through the form; resolves with its id. */
  const send = async (overrides: Record<string, unknown> = {}) => {
    const sent = {
      name: `Visitor ${tag()}`,
      email: `visitor-${tag()}@example.com`,
      subject: 'support',
      message: 'Hello, I cannot find my invoice. Could you help?',
      language: 'en',
      page: '/en/contact',
      token: issueFormToken(TEST_SECRET, Date.now() - 20_000),
      ...overrides,
    };
    expect((await api.client().post(CONTACT_API.messages, sent)).status).toBe(202);
    const [row] = await api
      .db()
      .query<{ id: string }>('SELECT id FROM contact_messages WHERE email = $1 ORDER BY created_at DESC', [sent.email]);
    return { ...sent, id: row?.id ?? '' };
  };
  const list = async (client: TestClient, query = '') =>
    (await client.get(`${INBOX_API.messages}${query}`)) as unknown as { status: number; body: MessagesAnswer };
  const detail = async (client: TestClient, id: string) =>
    (await client.get(withId(INBOX_API.message, id))).body as unknown as MessageDetail;

  it('gives a signed-out visitor, a member and another site nothing', async () => {
    const message = await send();
    const { client: operator } = await staff();
    const { client: member } = await api.member();
    const reads = [STAFF_API.me, INBOX_API.messages, withId(INBOX_API.message, message.id)];
    const writes: [string, unknown][] = [
      [withId(INBOX_API.status, message.id), { status: 'read' }],
      [withId(INBOX_API.reply, message.id), { body: 'Hello' }],
      [withId(INBOX_API.remove, message.id), {}],
    ];
    for (const path of reads) {
      expect(await api.client().get(path), path).toMatchObject({
        status: 401,
        body: { error: { code: 'UNAUTHORIZED' } },
      });
      expect(await member.get(path), path).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
      for (const headers of [{ Origin: 'https://evil.example' }, { 'Sec-Fetch-Site': 'cross-site' }] as Record<
        string,
        string
      >[]) {
        const answer = await operator.request('GET', path, undefined, headers);
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(Object.keys(answer.body)).toEqual(['error']);
      }
      expect((await operator.get(path)).status, path).toBe(200);
    }
    for (const [path, body] of writes) {
      expect((await api.client().post(path, body)).status, path).toBe(401);
      expect((await member.post(path, body)).status, path).toBe(403);
      expect((await operator.post(path, body, { Origin: 'https://evil.example' })).status, path).toBe(403);
    }
    // None of that changed the message.
    expect((await detail(operator, message.id)).message).toMatchObject({ status: 'new', replies: 0 });
  });

  it('lists messages newest first, with counts, filters and search, a page at a time', {
    timeout: 30_000,
  }, async () => {
    const { client } = await staff();
    const marker = `needle${tag()}`;
    const first = await send({ message: `The first one, about ${marker}.`, language: 'it', page: '/it/contact' });
    const second = await send({ message: `The second one: 100%_${marker} done.`, language: 'th' });
    const other = await send();

    const all = await list(client);
    expect(all.status).toBe(200);
    const ids = all.body.messages.map((m) => m.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(all.body.counts.new).toBeGreaterThanOrEqual(3);
    expect(all.body.messages.find((m) => m.id === first.id)).toMatchObject({
      name: first.name,
      email: first.email,
      subject: 'support',
      language: 'it',
      status: 'new',
      preview: first.message,
      replies: 0,
    });

    const found = await list(client, `?q=${marker}`);
    expect(found.body.messages.map((m) => m.id)).toEqual([second.id, first.id]);
    // LIKE's wildcards in a search mean the characters themselves.
    expect((await list(client, `?q=${encodeURIComponent(`100%_${marker}`)}`)).body.messages.map((m) => m.id)).toEqual([
      second.id,
    ]);
    expect((await list(client, `?q=${encodeURIComponent('%')}&language=th`)).body.messages.map((m) => m.id)).toContain(
      second.id,
    );
    expect((await list(client, `?q=${marker}&language=it`)).body.messages.map((m) => m.id)).toEqual([first.id]);
    expect((await list(client, `?q=${encodeURIComponent(other.email.toUpperCase())}`)).body.messages).toHaveLength(1);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(client, `?q=${marker}&from=${today}&to=${today}`)).body.messages).toHaveLength(2);
    expect((await list(client, `?q=${marker}&to=2020-01-01`)).body.messages).toHaveLength(0);
    expect((await list(client, `?q=${marker}&status=archived`)).body.messages).toHaveLength(0);

    // Pages of fifty, the next one named by the last message shown. (Spam, so that nobody is mailed.)
    for (let i = 0; i < 50; i++) await send({ email: `page-${i}-${tag()}@example.com`, website: 'robot' });
    const page1 = await list(client, '?status=all');
    expect(page1.body.messages).toHaveLength(50);
    expect(page1.body.next).toEqual(expect.any(String));
    const page2 = await list(client, `?status=all&before=${encodeURIComponent(page1.body.next ?? '')}`);
    expect(page2.body.messages.length).toBeGreaterThan(0);
    const seen = new Set(page1.body.messages.map((m) => m.id));
    expect(page2.body.messages.some((m) => seen.has(m.id))).toBe(false);
  });

  it('refuses filters that make no sense with a field error', async () => {
    const { client } = await staff();
    const cases: [string, Record<string, string>][] = [
      ['?status=deleted', { status: 'INVALID_REQUEST' }],
      ['?language=xx', { language: 'INVALID_REQUEST' }],
      ['?from=2026-02-30', { from: 'INVALID_DATE_RANGE' }],
      ['?from=yesterday', { from: 'INVALID_DATE_RANGE' }],
      ['?from=2026-03-01&to=2026-02-01', { to: 'INVALID_DATE_RANGE' }],
      ['?from=2020-01-01&to=2026-01-01', { to: 'INVALID_DATE_RANGE' }],
      [`?q=${'x'.repeat(201)}`, { q: 'INVALID_REQUEST' }],
      ["?before=x'%20OR%201=1", { before: 'INVALID_REQUEST' }],
      // Year 0 is a valid ISO date, but no date PostgreSQL takes (it answered 500).
      ['?from=0000-01-01', { from: 'INVALID_DATE_RANGE' }],
      ['?to=0000-12-31', { to: 'INVALID_DATE_RANGE' }],
      [`?before=${encodeURIComponent(`0000-01-01T00:00:00Z_${randomUUID()}`)}`, { before: 'INVALID_REQUEST' }],
      [`?before=${encodeURIComponent(`2026-02-30T00:00:00Z_${randomUUID()}`)}`, { before: 'INVALID_REQUEST' }],
    ];
    for (const [query, fields] of cases) {
      expect(await list(client, query), query).toMatchObject({
        status: 400,
        body: { error: { code: 'VALIDATION_ERROR', fields } },
      });
    }
    // The last day there is, and the first, are answered.
    expect((await list(client, '?from=9999-12-31&to=9999-12-31')).status).toBe(200);
    expect((await list(client, '?from=0001-01-01&to=0001-01-31')).status).toBe(200);
    expect((await client.get(withId(INBOX_API.message, 'not-an-id'))).status).toBe(404);
    expect((await client.get(withId(INBOX_API.message, "1' OR '1'='1"))).status).toBe(404);
    expect(await client.get(withId(INBOX_API.message, randomUUID()))).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
    expect((await client.post(withId(INBOX_API.status, randomUUID()), { status: 'read' })).status).toBe(404);
  });

  it('answers junk with a 4xx on every console call, never a 5xx', async () => {
    const { client } = await staff('admin');
    const message = await send();
    for (const q of ['%00', '\u0000', encodeURIComponent('a\u0000b'), '%ED%A0%80', '%FF%FE', "'; DROP TABLE x;--"]) {
      const answer = await client.get(`${INBOX_API.messages}?q=${q}`);
      expect(answer.status, q).toBe(200);
    }
    const bodies = [
      'null',
      '[]',
      '"text"',
      '42',
      '{"status": {"$ne": null}}',
      '{"body": ["a"]}',
      '{',
      `{"body": "${'x'.repeat(70_000)}"}`,
    ];
    const paths = [
      withId(INBOX_API.status, message.id),
      withId(INBOX_API.reply, message.id),
      STAFF_API.members,
      withId(STAFF_API.role, randomUUID()),
      // Deleting takes no fields, so only what is not a JSON object is junk to it.
      withId(INBOX_API.remove, message.id),
    ];
    for (const path of paths) {
      for (const body of path.endsWith('/delete') ? bodies.filter((b) => !b.startsWith('{"')) : bodies) {
        const answer = await client.request('POST', path, body);
        expect(answer.status, `${path} ${body.slice(0, 30)}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${path} ${body.slice(0, 30)}`).toBeLessThan(500);
      }
    }
    expect((await detail(client, message.id)).message.status).toBe('new');
  });

  it('shows a message with its page and language, its text exactly as written', async () => {
    const { client } = await staff();
    const html = '<script>alert("x")</script><img src=x onerror=alert(1)> and **more** text';
    const message = await send({ message: html, language: 'de', page: '/de/about' });
    const shown = await detail(client, message.id);
    expect(shown.message).toMatchObject({
      id: message.id,
      body: html,
      page: '/de/about',
      language: 'de',
      status: 'new',
      spamReason: null,
      fromAccount: false,
    });
    expect(shown.replies).toEqual([]);
    expect(shown.events).toEqual([]);
  });

  it('records who changed a status and when; a read answer stays answered, spam can be undone', async () => {
    const { client, person } = await staff();
    const message = await send();
    const set = (status: string) => client.post(withId(INBOX_API.status, message.id), { status });
    expect(await set('read')).toMatchObject({ status: 200, body: { status: 'read' } });
    expect(await set('read')).toMatchObject({ status: 200, body: { status: 'read' } });
    expect((await set('archived')).body).toEqual({ status: 'archived' });
    expect((await set('read')).body).toEqual({ status: 'read' });
    expect((await set('spam')).body).toEqual({ status: 'spam' });
    expect((await set('read')).body).toEqual({ status: 'read' });
    expect((await set('new')).body).toEqual({ status: 'new' });
    expect(await set('answered')).toMatchObject({
      status: 400,
      body: { error: { fields: { status: 'INVALID_REQUEST' } } },
    });
    const events = (await detail(client, message.id)).events;
    expect(events.map((e) => e.action)).toEqual(['read', 'archived', 'restored', 'spam', 'not-spam', 'unread']);
    expect(events.every((e) => e.actor === person.name && !Number.isNaN(Date.parse(e.createdAt)))).toBe(true);
  });

  it('answers by mail through the jobs and keeps the answer in the thread', async () => {
    const { client, person } = await staff();
    const message = await send({
      language: 'fr',
      page: '/fr/contact',
      message: 'Bonjour,\nune question <b>importante</b>.',
    });
    const answer = await client.post(withId(INBOX_API.reply, message.id), {
      body: 'Bonjour,\r\nvoici la réponse.\r\n\r\nBien à vous',
    });
    expect(answer).toMatchObject({ status: 201, body: { id: expect.any(String) } });

    const mail = await api.mail().waitFor(message.email);
    expect(mail.subject).toBe('Re: De l’aide avec le site ou mon compte – Your Company');
    expect(mail.headers['content-language']).toBe('fr');
    expect(mail.headers['reply-to']).toBe('hello@localhost');
    expect(mail.text).toContain(`Bonjour ${message.name},`);
    expect(mail.text).toContain('voici la réponse.');
    expect(mail.text).toContain(person.name);
    expect(mail.text).toContain('> une question <b>importante</b>.');
    expect(mail.html).toContain('une question &lt;b&gt;importante&lt;/b&gt;.');

    await expect
      .poll(async () => (await detail(client, message.id)).replies[0]?.delivery, { timeout: 15_000 })
      .toBe('sent');
    const thread = await detail(client, message.id);
    expect(thread.message.status).toBe('answered');
    expect(thread.replies).toEqual([
      {
        id: answer.body.id,
        body: 'Bonjour,\nvoici la réponse.\n\nBien à vous',
        author: person.name,
        createdAt: expect.any(String),
        delivery: 'sent',
        sentAt: expect.any(String),
      },
    ]);
    expect(thread.events.map((e) => e.action)).toEqual(['replied']);
    expect((await list(client, `?q=${encodeURIComponent(message.email)}`)).body.messages[0]).toMatchObject({
      status: 'answered',
      replies: 1,
    });
  });

  it('shows an answer as queued, then retrying while the mail server is down, then sent, as the jobs report it', async () => {
    const { client } = await staff();
    const message = await send();
    const delivery = async () => (await detail(client, message.id)).replies[0]?.delivery;
    const server = api.holdingMailer();
    const restore = api.mailVia(server.mailer);
    const log = captureLog();
    try {
      await client.post(withId(INBOX_API.reply, message.id), { body: 'We are on it.' });
      expect(await delivery()).toBe('queued');
      // Still queued while the mail server has it.
      await vi.waitFor(() => expect(server.holding()).toBe(true));
      expect(await delivery()).toBe('queued');
      server.goDown();
      await expect.poll(delivery).toBe('retrying');
    } finally {
      restore();
      log.restore();
    }
    await api
      .db()
      .query(`UPDATE jobs SET run_at = now() WHERE kind = $1 AND payload->>'messageId' = $2`, [
        CONTACT_MAIL_JOB,
        message.id,
      ]);
    await api.mail().waitFor(message.email);
    await expect.poll(delivery).toBe('sent');
  });

  it('shows an answer kept on the server, not sent, when no mail server is set', async () => {
    const { client } = await staff();
    const message = await send();
    const log = captureLog();
    const restore = api.mailVia(outboxMailer(api.db()));
    try {
      await client.post(withId(INBOX_API.reply, message.id), { body: 'Kept, not sent.' });
      await expect.poll(async () => (await detail(client, message.id)).replies[0]?.delivery).toBe('kept');
    } finally {
      restore();
      log.restore();
    }
    expect(await outboxFor(api.db(), message.email)).toHaveLength(1);
  });

  it('refuses an empty or oversized answer, and any answer to spam', async () => {
    const { client } = await staff();
    const message = await send();
    const reply = (body: unknown) => client.post(withId(INBOX_API.reply, message.id), { body });
    expect((await reply('  \n ')).body).toEqual({
      error: { code: 'VALIDATION_ERROR', fields: { body: 'MISSING_REQUIRED_FIELD' } },
    });
    expect((await reply('x'.repeat(10_001))).body).toEqual({
      error: { code: 'VALIDATION_ERROR', fields: { body: 'MESSAGE_TOO_LONG' } },
    });
    expect((await reply(42)).status).toBe(400);
    const spam = await send({ website: 'robot' });
    expect(await client.post(withId(INBOX_API.reply, spam.id), { body: 'Hello' })).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN' } },
    });
    expect((await detail(client, spam.id)).replies).toEqual([]);
  });

  it('deletes a message with its thread and waiting mail, and records who did', async () => {
    const { client, person } = await staff('admin');
    const message = await send();
    while ((await api.runJobs()) > 0);
    const restore = api.mailVia({ send: () => Promise.reject(new Error('mail server down')) });
    const waiting = () =>
      api
        .db()
        .query(`SELECT 1 FROM jobs WHERE kind = $1 AND payload->>'messageId' = $2`, [CONTACT_MAIL_JOB, message.id]);
    try {
      await client.post(withId(INBOX_API.reply, message.id), { body: 'An answer that will never leave.' });
      while ((await api.runJobs()) > 0);
      expect(await waiting()).toHaveLength(1);
      expect(await client.post(withId(INBOX_API.remove, message.id))).toMatchObject({ status: 200, body: {} });
    } finally {
      restore();
    }
    expect(await waiting()).toEqual([]);
    expect((await client.get(withId(INBOX_API.message, message.id))).status).toBe(404);
    expect(await client.post(withId(INBOX_API.remove, message.id))).toMatchObject({ status: 404 });
    const [rows] = await api.db().query<{ messages: number; replies: number }>(
      `SELECT (SELECT count(*) FROM contact_messages WHERE id = $1)::integer AS messages,
              (SELECT count(*) FROM contact_replies WHERE message_id = $1)::integer AS replies`,
      [message.id],
    );
    expect(rows).toEqual({ messages: 0, replies: 0 });
    const events = await api
      .db()
      .query<{ action: string; actor: string }>(
        'SELECT e.action, a.name AS actor FROM contact_events e JOIN accounts a ON a.id = e.actor_id WHERE message_id = $1 ORDER BY e.id',
        [message.id],
      );
    expect(events).toEqual([
      { action: 'replied', actor: person.name },
      { action: 'deleted', actor: person.name },
    ]);
  });
});
