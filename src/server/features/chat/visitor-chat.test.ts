import { expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { CHAT_API, CHAT_MESSAGE_MAX_LENGTH, CONSOLE_CHAT_API } from '#common/chat-api.ts';
import { storageEntry } from '#common/storage.ts';
import { describeApi } from '#tests/support/api.ts';
import { chatMessage, signedInOperator, visitorWithConversation } from '#tests/support/chat.ts';
import { CHAT_LIMITS } from './chat-limits.ts';
import { hashChatToken } from './visitor-identity.ts';

const TOKEN = storageEntry('chat').name;
const ACTIVE = storageEntry('chatActive').name;

describeApi('chat, the visitor side', (api) => {
  it('sets no cookie and has nothing before the first message', async () => {
    const visitor = api.client();
    const answer = await visitor.get(CHAT_API.conversation);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ conversation: null, messages: [], cursor: 0 });
    expect(answer.headers.getSetCookie()).toEqual([]);
  });

  it('starts the conversation with the first message, in a cookie whose token is stored only hashed', async () => {
    const visitor = api.client();
    const sent = chatMessage('Do you ship to Thailand?', { page: '/th/about', language: 'th' });
    const answer = await visitor.post(CHAT_API.messages, sent);
    expect(answer.status).toBe(201);
    expect(answer.body.message).toMatchObject({
      author: 'visitor',
      body: sent.body,
      clientMessageId: sent.clientMessageId,
    });
    expect(answer.body.conversation).toMatchObject({ status: 'open', ended: false, blocked: false, email: null });

    const cookies = answer.headers.getSetCookie();
    const token = cookies.find((line) => line.startsWith(`${TOKEN}=`)) ?? '';
    expect(token).toMatch(/HttpOnly/i);
    expect(token).toMatch(/Secure/i);
    expect(token).toMatch(/SameSite=Lax/i);
    expect(token).toMatch(/Path=\//);
    expect(token).toMatch(/Max-Age=2592000/);
    const marker = cookies.find((line) => line.startsWith(`${ACTIVE}=`)) ?? '';
    expect(marker).toMatch(/^chat_active=1;/);
    expect(marker).not.toMatch(/HttpOnly/i);

    const value = visitor.cookies.get(TOKEN) as string;
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await api
      .db()
      .query<{ hash: string; language: string; page: string }>(
        'SELECT visitor_token_hash AS hash, language, page FROM chat_conversations WHERE visitor_token_hash = $1',
        [hashChatToken(value)],
      );
    expect(rows).toEqual([{ hash: hashChatToken(value), language: 'th', page: '/th/about' }]);
    expect(await api.db().query('SELECT 1 FROM chat_conversations WHERE visitor_token_hash = $1', [value])).toEqual([]);

    const read = await visitor.get(CHAT_API.conversation);
    expect(read.body.messages).toEqual([answer.body.message]);
    expect(read.body.cursor).toBeGreaterThanOrEqual((answer.body.message as { id: number }).id);
  });

  it('lets nobody else read, follow, write to or end a conversation', async () => {
    const { visitor } = await visitorWithConversation(api, 'My order number is 1234');
    const stranger = api.client();
    expect((await stranger.get(CHAT_API.conversation)).body).toEqual({ conversation: null, messages: [], cursor: 0 });
    expect((await stranger.get(CHAT_API.stream)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
    for (const [path, body] of [
      [CHAT_API.read, { upTo: 1 }],
      [CHAT_API.email, { email: 'someone@example.com' }],
      [CHAT_API.end, {}],
    ] as const) {
      const answer = await stranger.post(path, body);
      expect([path, answer.status, answer.body]).toEqual([path, 404, { error: { code: 'INVALID_REQUEST' } }]);
    }
    // A made-up token is no better, and its cookies are cleared.
    stranger.cookies.set(TOKEN, 'x'.repeat(43));
    expect((await stranger.get(CHAT_API.conversation)).body.conversation).toBeNull();
    expect(stranger.cookies.has(TOKEN)).toBe(false);
    // A message from the stranger starts a conversation of their own.
    await stranger.post(CHAT_API.messages, chatMessage('Hi'));
    const theirs = await stranger.get(CHAT_API.conversation);
    expect((theirs.body.messages as { body: string }[]).map((m) => m.body)).toEqual(['Hi']);
    const mine = await visitor.get(CHAT_API.conversation);
    expect((mine.body.messages as { body: string }[]).map((m) => m.body)).toEqual(['My order number is 1234']);
  });

  it('stores a message sent again once, and answers it as the same message', async () => {
    const { visitor, conversationId } = await visitorWithConversation(api);
    const message = chatMessage('Sent twice');
    const first = await visitor.post(CHAT_API.messages, message);
    const again = await visitor.post(CHAT_API.messages, message);
    const atOnce = await Promise.all([
      visitor.post(CHAT_API.messages, message),
      visitor.post(CHAT_API.messages, message),
    ]);
    expect(first.status).toBe(201);
    expect([again.status, ...atOnce.map((answer) => answer.status)]).toEqual([200, 200, 200]);
    for (const answer of [again, ...atOnce]) expect(answer.body.message).toEqual(first.body.message);
    const stored = await api
      .db()
      .query('SELECT 1 FROM chat_messages WHERE conversation_id = $1 AND body = $2', [conversationId, 'Sent twice']);
    expect(stored).toHaveLength(1);
  });

  it('stores a first message sent again after its answer was lost once, in one conversation', async () => {
    const visitor = api.client();
    const message = chatMessage('My first words');
    const lost = await visitor.post(CHAT_API.messages, message);
    expect(lost.status).toBe(201);
    // The answer never arrived: the browser has no cookie and sends the same message again.
    visitor.cookies.delete(TOKEN);
    visitor.cookies.delete(ACTIVE);
    const retried = await visitor.post(CHAT_API.messages, message);
    expect(retried.status).toBe(200);
    expect(retried.body.message).toEqual(lost.body.message);
    expect(visitor.cookies.get(TOKEN)).toBeTruthy();
    expect((await visitor.get(CHAT_API.conversation)).body.messages).toEqual([lost.body.message]);
    const conversations = await api
      .db()
      .query(`SELECT DISTINCT conversation_id FROM chat_messages WHERE client_message_id = $1`, [
        message.clientMessageId,
      ]);
    expect(conversations).toHaveLength(1);
    // The same id from another address is someone else's first message, not a retry.
    const other = api.client();
    expect((await other.post(CHAT_API.messages, message)).status).toBe(201);
  });

  it('refuses junk with the error codes of the catalogue', async () => {
    const visitor = api.client();
    const cases: [unknown, number, unknown][] = [
      [chatMessage(''), 400, { code: 'VALIDATION_ERROR', fields: { body: 'MISSING_REQUIRED_FIELD' } }],
      [chatMessage('   \n '), 400, { code: 'VALIDATION_ERROR', fields: { body: 'MISSING_REQUIRED_FIELD' } }],
      [
        chatMessage('x'.repeat(CHAT_MESSAGE_MAX_LENGTH + 1)),
        400,
        { code: 'VALIDATION_ERROR', fields: { body: 'VALIDATION_ERROR' } },
      ],
      [chatMessage('bell \u0007'), 400, { code: 'VALIDATION_ERROR', fields: { body: 'INVALID_REQUEST' } }],
      [
        chatMessage('ok', { clientMessageId: 'short' }),
        400,
        { code: 'VALIDATION_ERROR', fields: { clientMessageId: 'INVALID_REQUEST' } },
      ],
      [
        chatMessage('ok', { page: 'https://evil.example/' }),
        400,
        { code: 'VALIDATION_ERROR', fields: { page: 'INVALID_REQUEST' } },
      ],
      [
        chatMessage('ok', { language: 'xx' }),
        400,
        { code: 'VALIDATION_ERROR', fields: { language: 'INVALID_REQUEST' } },
      ],
      [
        { body: 42 },
        400,
        { code: 'VALIDATION_ERROR', fields: { body: 'INVALID_REQUEST', clientMessageId: 'INVALID_REQUEST' } },
      ],
      ['not json', 400, { code: 'INVALID_REQUEST' }],
    ];
    for (const [body, status, error] of cases) {
      const answer = await visitor.post(CHAT_API.messages, body);
      expect([answer.status, answer.body]).toEqual([status, { error }]);
    }
    // Exactly the longest message is fine; length counts characters, not UTF-16 units.
    expect((await visitor.post(CHAT_API.messages, chatMessage('😀'.repeat(CHAT_MESSAGE_MAX_LENGTH)))).status).toBe(201);
    // Without the site's Origin, nothing is written.
    const foreign = await visitor.post(CHAT_API.messages, chatMessage('hi'), { Origin: 'https://evil.example' });
    expect([foreign.status, foreign.body]).toEqual([403, { error: { code: 'INVALID_REQUEST' } }]);
    expect((await visitor.post(CHAT_API.email, { email: 'not an address' })).body).toEqual({
      error: { code: 'VALIDATION_ERROR', fields: { email: 'INVALID_EMAIL' } },
    });
  });

  it('limits messages per minute per conversation', async () => {
    const { visitor } = await visitorWithConversation(api);
    // The first message counted too.
    for (let i = 1; i < CHAT_LIMITS.messagesPerConversation.hits; i++) {
      expect((await visitor.post(CHAT_API.messages, chatMessage(`message ${i}`))).status).toBe(201);
    }
    const refused = await visitor.post(CHAT_API.messages, chatMessage('one too many'));
    expect([refused.status, refused.body]).toEqual([429, { error: { code: 'TOO_MANY_REQUESTS' } }]);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
  });

  it('limits new conversations per client address', async () => {
    const app = api.app({ settings: { chatConversationsPerClient: 2 } });
    const visitor = api.client(app);
    for (let i = 0; i < 2; i++) {
      expect((await visitor.post(CHAT_API.messages, chatMessage(`conversation ${i}`))).status).toBe(201);
      expect((await visitor.post(CHAT_API.end, {})).status).toBe(200);
    }
    const refused = await visitor.post(CHAT_API.messages, chatMessage('a third one'));
    expect([refused.status, refused.body]).toEqual([429, { error: { code: 'TOO_MANY_REQUESTS' } }]);
    expect(visitor.cookies.has(TOKEN)).toBe(false);
  });

  it('lets the visitor end the conversation: the browser forgets it, the team keeps it', async () => {
    const { visitor, conversationId } = await visitorWithConversation(api, 'Thanks, that was all');
    const token = visitor.cookies.get(TOKEN) as string;
    const ended = await visitor.post(CHAT_API.end, {});
    expect(ended.status).toBe(200);
    expect(visitor.cookies.has(TOKEN)).toBe(false);
    expect(visitor.cookies.has(ACTIVE)).toBe(false);
    expect(ended.headers.getSetCookie().join('\n')).toMatch(/__Host-chat=;.*Max-Age=0/i);

    // The old token is worth nothing now.
    visitor.cookies.set(TOKEN, token);
    expect((await visitor.get(CHAT_API.conversation)).body.conversation).toBeNull();
    const { client: operator } = await signedInOperator(api);
    const seen = await operator.get(CONSOLE_CHAT_API.conversation(conversationId));
    expect(seen.body.conversation).toMatchObject({ id: conversationId, status: 'closed', visitorEnded: true });
    // Writing again starts a new conversation.
    await visitor.post(CHAT_API.messages, chatMessage('One more thing'));
    const fresh = await visitor.get(CHAT_API.conversation);
    expect((fresh.body.messages as { body: string }[]).map((m) => m.body)).toEqual(['One more thing']);
  });

  it('keeps the address the visitor gives for replies', async () => {
    const { visitor } = await visitorWithConversation(api);
    const answer = await visitor.post(CHAT_API.email, { email: 'Visitor@Example.com' });
    expect(answer.status).toBe(200);
    expect(answer.body.conversation).toMatchObject({ email: 'visitor@example.com', accountBound: false });
  });

  it('moves the visitor read marker forward only, and never past the last message', async () => {
    const { visitor, first } = await visitorWithConversation(api);
    const read = await visitor.post(CHAT_API.read, { upTo: first.id + 1_000 });
    expect(read.body.conversation).toMatchObject({ visitorReadId: first.id });
    const back = await visitor.post(CHAT_API.read, { upTo: 0 });
    expect(back.body.conversation).toMatchObject({ visitorReadId: first.id });
    expect((await visitor.post(CHAT_API.read, { upTo: -1 })).status).toBe(400);
  });

  it("ties a signed-in visitor's conversation to their account, in each of their browsers, and deletes it with the account", async () => {
    const { client: member, person } = await api.member();
    const started = await member.post(CHAT_API.messages, chatMessage('I am signed in'));
    expect(started.body.conversation).toMatchObject({ accountBound: true, email: person.email });

    // Another browser of theirs, signed in, without the chat cookie, sees the same conversation.
    const laptop = api.client();
    await laptop.post(ACCOUNT_API.login, { email: person.email, password: person.password, language: 'en' });
    const there = await laptop.get(CHAT_API.conversation);
    expect((there.body.messages as { body: string }[]).map((m) => m.body)).toEqual(['I am signed in']);
    await laptop.post(CHAT_API.messages, chatMessage('From my laptop'));

    // Signed out, the cookie alone no longer opens it: the next person at this computer sees nothing.
    await member.post(ACCOUNT_API.logout, {});
    expect((await member.get(CHAT_API.conversation)).body.conversation).toBeNull();

    const [row] = await api
      .db()
      .query<{ id: number }>(
        'SELECT c.id FROM chat_conversations c JOIN accounts a ON a.id = c.account_id WHERE a.email = $1',
        [person.email],
      );
    expect(row).toBeDefined();
    const deleted = await laptop.post(ACCOUNT_API.deleteAccount, { password: person.password });
    expect(deleted.status).toBe(200);
    expect(await api.db().query('SELECT 1 FROM chat_conversations WHERE id = $1', [row?.id])).toEqual([]);
    expect(await api.db().query('SELECT 1 FROM chat_messages WHERE conversation_id = $1', [row?.id])).toEqual([]);
  });

  it('ties a conversation started before signing in to the account at the next message', async () => {
    const { visitor, conversationId } = await visitorWithConversation(api);
    const { person } = await api.member();
    await visitor.post(ACCOUNT_API.login, { email: person.email, password: person.password, language: 'en' });
    const answer = await visitor.post(CHAT_API.messages, chatMessage('Now I am signed in'));
    expect(answer.body.conversation).toMatchObject({ accountBound: true });
    const [row] = await api
      .db()
      .query<{ email: string }>(
        'SELECT a.email FROM chat_conversations c JOIN accounts a ON a.id = c.account_id WHERE c.id = $1',
        [conversationId],
      );
    expect(row?.email).toBe(person.email);
  });

  it('deletes messages and conversations after the retention period', async () => {
    const { conversationId: old } = await visitorWithConversation(api, 'long ago');
    const { conversationId: recent } = await visitorWithConversation(api, 'today');
    await api
      .db()
      .query(`UPDATE chat_messages SET created_at = now() - interval '366 days' WHERE conversation_id = $1`, [old]);
    await api
      .db()
      .query(`UPDATE chat_conversations SET last_message_at = now() - interval '366 days' WHERE id = $1`, [old]);
    await api.db().query(`UPDATE jobs SET run_at = now() WHERE kind = 'chat.prune'`);
    await api
      .db()
      .query(`INSERT INTO jobs (kind, unique_key) VALUES ('chat.prune', 'chat.prune') ON CONFLICT DO NOTHING`);
    await api.runJobs();
    expect(
      await api.db().query('SELECT id FROM chat_conversations WHERE id = ANY($1::bigint[])', [[old, recent]]),
    ).toEqual([{ id: recent }]);
  });
});
