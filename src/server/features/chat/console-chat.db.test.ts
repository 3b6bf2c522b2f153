import { expect, it } from 'vitest';
import { CHAT_API, CONSOLE_CHAT_API, type ConsoleConversation } from '#common/chat-api.ts';
import { openDatabase } from '#server/platform/db/database.ts';
import { describeApi, TestClient } from '#tests/support/api.ts';
import { chatMessage, consoleStream, signedInOperator, visitorWithConversation } from '#tests/support/chat.ts';
import { captureLog } from '#tests/support/log.ts';

describeApi('chat, the operators side', (api) => {
  it('answers only operators and admins', async () => {
    const { conversationId } = await visitorWithConversation(api);
    const anonymous = api.client();
    const { client: member } = await api.member();
    const { client: admin } = await signedInOperator(api, 'admin');
    const paths = [
      ['GET', CONSOLE_CHAT_API.conversations],
      ['GET', CONSOLE_CHAT_API.conversation(conversationId)],
      ['GET', CONSOLE_CHAT_API.stream],
      ['POST', CONSOLE_CHAT_API.reply(conversationId)],
      ['POST', CONSOLE_CHAT_API.read(conversationId)],
      ['POST', CONSOLE_CHAT_API.close(conversationId)],
      ['POST', CONSOLE_CHAT_API.block(conversationId)],
    ] as const;
    for (const [method, path] of paths) {
      const body = method === 'POST' ? {} : undefined;
      const asAnonymous = await anonymous.request(method, path, body);
      const asMember = await member.request(method, path, body);
      expect([path, asAnonymous.status, asAnonymous.body]).toEqual([path, 401, { error: { code: 'UNAUTHORIZED' } }]);
      expect([path, asMember.status, asMember.body]).toEqual([path, 403, { error: { code: 'FORBIDDEN' } }]);
    }
    expect((await admin.get(CONSOLE_CHAT_API.conversations)).status).toBe(200);
  });

  it('lists conversations newest activity first, with unread counts, language and page', async () => {
    const { client: operator } = await signedInOperator(api);
    const older = await visitorWithConversation(api, 'older');
    const newer = api.client();
    await newer.post(CHAT_API.messages, chatMessage('Bonjour', { page: '/fr/contact', language: 'fr' }));
    await newer.post(CHAT_API.messages, chatMessage('Vous êtes là ?', { page: '/fr/about', language: 'fr' }));

    const list = await operator.get(CONSOLE_CHAT_API.conversations);
    expect(list.status).toBe(200);
    const conversations = list.body.conversations as ConsoleConversation[];
    const newerOne = conversations[0] as ConsoleConversation;
    expect(newerOne).toMatchObject({
      status: 'open',
      language: 'fr',
      page: '/fr/about',
      unread: 2,
      lastMessage: { author: 'visitor', excerpt: 'Vous êtes là ?' },
      visitorEmail: null,
      account: null,
      blocked: false,
      visitorEnded: false,
    });
    expect(conversations.findIndex((c) => c.id === older.conversationId)).toBeGreaterThan(0);

    // Reading the thread and marking it read clears its unread count; a new message counts again.
    const thread = await operator.get(CONSOLE_CHAT_API.conversation(newerOne.id));
    const messages = thread.body.messages as { id: number; body: string }[];
    expect(messages.map((m) => m.body)).toEqual(['Bonjour', 'Vous êtes là ?']);
    const read = await operator.post(CONSOLE_CHAT_API.read(newerOne.id), { upTo: messages.at(-1)?.id });
    expect(read.body.conversation).toMatchObject({ unread: 0 });
    await newer.post(CHAT_API.messages, chatMessage('Allô ?'));
    const again = await operator.get(CONSOLE_CHAT_API.conversation(newerOne.id));
    expect(again.body.conversation).toMatchObject({ unread: 1 });
    // Every change moves the conversation's seq forward: the console keeps the copy with the higher one.
    const seqs = [newerOne, read.body.conversation, again.body.conversation].map((c) => (c as ConsoleConversation).seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(3);
  });

  it("shows a signed-in visitor's account and the address a visitor gave", async () => {
    const { client: operator } = await signedInOperator(api);
    const { client: member, person } = await api.member();
    await member.post(CHAT_API.messages, chatMessage('Question about my account'));
    const { visitor, conversationId } = await visitorWithConversation(api);
    await visitor.post(CHAT_API.email, { email: 'reply-here@example.com' });
    const list = (await operator.get(CONSOLE_CHAT_API.conversations)).body.conversations as ConsoleConversation[];
    expect(list.find((c) => c.account?.email === person.email)).toMatchObject({ account: { name: person.name } });
    expect(list.find((c) => c.id === conversationId)).toMatchObject({ visitorEmail: 'reply-here@example.com' });
  });

  it('stores a reply sent again once, and names who wrote it', async () => {
    const { client: operator, person } = await signedInOperator(api);
    const { visitor, conversationId } = await visitorWithConversation(api);
    const reply = chatMessage('We are on it.');
    const first = await operator.post(CONSOLE_CHAT_API.reply(conversationId), reply);
    const again = await operator.post(CONSOLE_CHAT_API.reply(conversationId), reply);
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.message).toMatchObject({
      id: (first.body.message as { id: number }).id,
      operatorName: person.name,
    });
    const seen = await visitor.get(CHAT_API.conversation);
    expect((seen.body.messages as { author: string; body: string }[]).map((m) => [m.author, m.body])).toEqual([
      ['visitor', 'Hello, is anyone there?'],
      ['operator', 'We are on it.'],
    ]);
    const thread = await operator.get(CONSOLE_CHAT_API.conversation(conversationId));
    expect((thread.body.messages as { operatorName: string | null }[]).map((m) => m.operatorName)).toEqual([
      null,
      person.name,
    ]);
  });

  it('closes a conversation, which the visitor opens again by writing', async () => {
    const { client: operator } = await signedInOperator(api);
    const { visitor, conversationId } = await visitorWithConversation(api);
    const closed = await operator.post(CONSOLE_CHAT_API.close(conversationId), {});
    expect(closed.body.conversation).toMatchObject({ status: 'closed' });
    expect((await visitor.get(CHAT_API.conversation)).body.conversation).toMatchObject({ status: 'closed' });
    const closedList = (await operator.get(`${CONSOLE_CHAT_API.conversations}?status=closed`)).body
      .conversations as ConsoleConversation[];
    expect(closedList.map((c) => c.id)).toContain(conversationId);
    const openList = (await operator.get(CONSOLE_CHAT_API.conversations)).body.conversations as ConsoleConversation[];
    expect(openList.map((c) => c.id)).not.toContain(conversationId);

    const written = await visitor.post(CHAT_API.messages, chatMessage('Sorry, one more question'));
    expect(written.body.conversation).toMatchObject({ status: 'open' });
  });

  it('blocks a visitor from writing and from starting over from the same address, until unblocked', async () => {
    const { client: operator } = await signedInOperator(api);
    const { visitor, conversationId } = await visitorWithConversation(api, 'spam spam spam');
    const blocked = await operator.post(CONSOLE_CHAT_API.block(conversationId), { blocked: true });
    expect(blocked.body.conversation).toMatchObject({ blocked: true });

    const refused = await visitor.post(CHAT_API.messages, chatMessage('more spam'));
    expect([refused.status, refused.body]).toEqual([403, { error: { code: 'FORBIDDEN' } }]);
    expect((await visitor.get(CHAT_API.conversation)).body.conversation).toMatchObject({ blocked: true });
    // Ending it and starting over does not help.
    await visitor.post(CHAT_API.end, {});
    const again = await visitor.post(CHAT_API.messages, chatMessage('new spam'));
    expect([again.status, again.body]).toEqual([403, { error: { code: 'FORBIDDEN' } }]);

    await operator.post(CONSOLE_CHAT_API.block(conversationId), { blocked: false });
    expect((await visitor.post(CHAT_API.messages, chatMessage('I am sorry'))).status).toBe(201);
  });

  it('refuses junk with the error codes of the catalogue', async () => {
    const { client: operator } = await signedInOperator(api);
    const { conversationId } = await visitorWithConversation(api);
    const cases: [string, unknown, number, unknown][] = [
      [
        CONSOLE_CHAT_API.reply(conversationId),
        chatMessage(''),
        400,
        { code: 'VALIDATION_ERROR', fields: { body: 'MISSING_REQUIRED_FIELD' } },
      ],
      [CONSOLE_CHAT_API.reply('abc'), chatMessage('hi'), 404, { code: 'NOT_FOUND' }],
      [CONSOLE_CHAT_API.reply(999_999_999), chatMessage('hi'), 404, { code: 'NOT_FOUND' }],
      [
        CONSOLE_CHAT_API.read(conversationId),
        { upTo: 'all' },
        400,
        { code: 'VALIDATION_ERROR', fields: { upTo: 'INVALID_REQUEST' } },
      ],
      [
        CONSOLE_CHAT_API.block(conversationId),
        { blocked: 'yes' },
        400,
        { code: 'VALIDATION_ERROR', fields: { blocked: 'INVALID_REQUEST' } },
      ],
    ];
    for (const [path, body, status, error] of cases) {
      const answer = await operator.post(path, body);
      expect([path, answer.status, answer.body]).toEqual([path, status, { error }]);
    }
    const badList = await operator.get(`${CONSOLE_CHAT_API.conversations}?status=everything`);
    expect([badList.status, badList.body]).toEqual([
      400,
      { error: { code: 'VALIDATION_ERROR', fields: { status: 'INVALID_REQUEST' } } },
    ]);
    expect((await operator.get(CONSOLE_CHAT_API.conversation(999_999_999))).status).toBe(404);
  });

  it('shows which operators are online while their console is open', async () => {
    const { client: first, person: firstPerson } = await signedInOperator(api);
    const { client: second, person: secondPerson } = await signedInOperator(api);
    const one = await consoleStream(first);
    try {
      await one.ready();
      const two = await consoleStream(second);
      try {
        await one.until(() =>
          expect(
            one
              .of<{ operators: { name: string }[] }>('presence')
              .at(-1)
              ?.operators.map((o) => o.name),
          ).toEqual(expect.arrayContaining([firstPerson.name, secondPerson.name])),
        );
        const list = await first.get(CONSOLE_CHAT_API.conversations);
        expect((list.body.operators as { name: string }[]).map((o) => o.name)).toEqual(
          expect.arrayContaining([firstPerson.name, secondPerson.name]),
        );
      } finally {
        await two.close();
      }
      await one.until(() =>
        expect(
          one
            .of<{ operators: { name: string }[] }>('presence')
            .at(-1)
            ?.operators.map((o) => o.name),
        ).not.toContain(secondPerson.name),
      );
    } finally {
      await one.close();
    }
  });

  // PGlite opens its directory in one handle at a time, so this needs a second pool on PostgreSQL.
  it.skipIf(api.target.kind === 'pglite')(
    'takes an operator off the team online when their stream ends as the server stops',
    async () => {
      const { client: operator, person } = await signedInOperator(api);
      const stopping = await openDatabase(api.store().options);
      const log = captureLog();
      try {
        const browser = new TestClient(api.app({ db: stopping }));
        for (const [name, value] of operator.cookies) browser.cookies.set(name, value);
        const stream = await consoleStream(browser);
        await stream.ready();
        // The browser leaves and the database closes at once, as main.ts does on a signal.
        await stream.close();
        await stopping.close();
        const left = await api
          .db()
          .query('SELECT 1 FROM chat_presence JOIN accounts ON accounts.id = account_id WHERE email = $1', [
            person.email,
          ]);
        expect(left).toEqual([]);
        expect(log.messages().join(' ')).not.toContain('clean-up failed');
      } finally {
        log.restore();
      }
    },
  );
});
