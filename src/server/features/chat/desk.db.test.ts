import { expect, it } from 'vitest';
import { CHAT_API, CONSOLE_CHAT_API, type ConsoleConversation } from '#common/chat-api.ts';
import { CHAT_DESK_API, type SavedReply } from '#common/chat-desk-api.ts';
import { describeApi } from '#tests/support/api.ts';
import {
  chatMessage,
  consoleStream,
  signedInOperator,
  visitorStream,
  visitorWithConversation,
} from '#tests/support/chat.ts';

const bodies = (events: { body?: unknown }[]) => events.map((event) => event.body);

describeApi('chat desk: saved replies, notes, assignment', (api) => {
  it('keeps saved replies with a text per language: admins change them, operators read them', async () => {
    const { client: admin } = await signedInOperator(api, 'admin');
    const { client: operator } = await signedInOperator(api);
    const shortcut = `hours-${Date.now()}`;
    const created = await admin.post(CHAT_DESK_API.savedReplies, {
      shortcut: ` ${shortcut.toUpperCase()} `,
      texts: {
        en: 'Hello {{name}}, we are open 9 to 5.',
        th: 'สวัสดีค่ะ คุณ{{name}} เราเปิด 9 โมงถึง 5 โมงเย็น',
        de: 'Hallo {{name}}, wir haben von 9 bis 17 Uhr offen.',
      },
    });
    expect(created.status).toBe(201);
    const saved = created.body.savedReply as SavedReply;
    expect(saved).toMatchObject({ shortcut, texts: { th: 'สวัสดีค่ะ คุณ{{name}} เราเปิด 9 โมงถึง 5 โมงเย็น' } });

    const listed = (await operator.get(CHAT_DESK_API.savedReplies)).body.savedReplies as SavedReply[];
    expect(listed.find((reply) => reply.id === saved.id)?.texts).toEqual({
      en: 'Hello {{name}}, we are open 9 to 5.',
      th: 'สวัสดีค่ะ คุณ{{name}} เราเปิด 9 โมงถึง 5 โมงเย็น',
      de: 'Hallo {{name}}, wir haben von 9 bis 17 Uhr offen.',
    });

    // Operators use them but do not change them.
    const byOperator = await operator.post(CHAT_DESK_API.savedReplies, { shortcut: 'mine', texts: { en: 'x' } });
    expect(byOperator).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect((await operator.post(CHAT_DESK_API.deleteSavedReply(saved.id), {})).status).toBe(403);

    const changed = await admin.post(CHAT_DESK_API.savedReply(saved.id), {
      shortcut,
      texts: { fr: 'Bonjour {{name}}.' },
    });
    expect(changed.body.savedReply).toMatchObject({ texts: { fr: 'Bonjour {{name}}.' } });
    expect(await admin.post(CHAT_DESK_API.savedReplies, { shortcut, texts: { en: 'again' } })).toMatchObject({
      status: 409,
      body: { error: { code: 'SAVED_REPLY_EXISTS', fields: { shortcut: 'SAVED_REPLY_EXISTS' } } },
    });
    expect((await admin.post(CHAT_DESK_API.deleteSavedReply(saved.id), {})).status).toBe(200);
    expect((await admin.post(CHAT_DESK_API.deleteSavedReply(saved.id), {})).status).toBe(404);
  });

  it('answers junk saved replies with 4xx and an error code', async () => {
    const { client: admin } = await signedInOperator(api, 'admin');
    const cases: [unknown, string, Record<string, string>][] = [
      [{ shortcut: 'has space', texts: { en: 'x' } }, 'VALIDATION_ERROR', { shortcut: 'INVALID_SHORTCUT' }],
      [{ shortcut: 'ok', texts: {} }, 'VALIDATION_ERROR', { texts: 'MISSING_REQUIRED_FIELD' }],
      [{ shortcut: 'ok', texts: { xx: 'x' } }, 'VALIDATION_ERROR', {}],
      [{ shortcut: 'ok', texts: { en: '   ' } }, 'VALIDATION_ERROR', { 'texts.en': 'MISSING_REQUIRED_FIELD' }],
      [{ shortcut: 'ok', texts: { en: 'x'.repeat(2001) } }, 'VALIDATION_ERROR', { 'texts.en': 'VALIDATION_ERROR' }],
      [{ texts: { en: 'x' } }, 'VALIDATION_ERROR', { shortcut: 'MISSING_REQUIRED_FIELD' }],
      ['not json', 'INVALID_REQUEST', {}],
    ];
    for (const [body, code, fields] of cases) {
      const answer = await admin.post(CHAT_DESK_API.savedReplies, body);
      expect([JSON.stringify(body), answer.status]).toEqual([JSON.stringify(body), 400]);
      expect(answer.body).toMatchObject({ error: { code } });
      expect((answer.body.error as { fields?: object }).fields ?? {}).toMatchObject(fields);
    }
    expect((await admin.post(CHAT_DESK_API.savedReply('abc'), { shortcut: 'ok', texts: { en: 'x' } })).status).toBe(
      404,
    );
    expect((await admin.post(CHAT_DESK_API.savedReply(999_999), { shortcut: 'ok', texts: { en: 'x' } })).status).toBe(
      404,
    );
  });

  it("keeps internal notes from the visitor's answers, stream and mail, and shows them to the team", async () => {
    const { client: operator } = await signedInOperator(api);
    const { visitor, conversationId } = await visitorWithConversation(api, 'Where is my parcel?');
    const visitorLive = await visitorStream(visitor);
    const consoleLive = await consoleStream(operator);
    try {
      await Promise.all([visitorLive.ready(), consoleLive.ready()]);
      const note = await operator.post(
        CHAT_DESK_API.note(conversationId),
        chatMessage('Secret: VIP customer, refund ok'),
      );
      expect(note.status).toBe(201);
      expect(note.body.message).toMatchObject({ author: 'note', body: 'Secret: VIP customer, refund ok' });
      await operator.post(CONSOLE_CHAT_API.reply(conversationId), chatMessage('It ships today.'));
      await consoleLive.until(() =>
        expect(bodies(consoleLive.of('message'))).toEqual(['Secret: VIP customer, refund ok', 'It ships today.']),
      );
      await visitorLive.until(() => expect(bodies(visitorLive.of('message'))).toContain('It ships today.'));

      const thread = await operator.get(CONSOLE_CHAT_API.conversation(conversationId));
      expect((thread.body.messages as { author: string }[]).map((m) => m.author)).toEqual([
        'visitor',
        'note',
        'operator',
      ]);
      const own = await visitor.get(CHAT_API.conversation);
      expect((own.body.messages as { body: string }[]).map((m) => m.body)).toEqual([
        'Where is my parcel?',
        'It ships today.',
      ]);
      expect(JSON.stringify(own.body)).not.toContain('Secret');
      expect(JSON.stringify(visitorLive.events)).not.toContain('Secret');
      // A stream opened later, from the start, leaves it out too.
      const fresh = await visitorStream(visitor);
      try {
        await fresh.ready();
        expect(bodies(fresh.of('message'))).toEqual(['Where is my parcel?', 'It ships today.']);
      } finally {
        await fresh.close();
      }
      // The visitor cannot post a note, nor reach one by its client id.
      expect((await visitor.post(CHAT_DESK_API.note(conversationId), chatMessage('x'))).status).toBe(401);
    } finally {
      await Promise.all([visitorLive.close(), consoleLive.close()]);
    }
    expect((await operator.post(CHAT_DESK_API.note(conversationId), chatMessage(''))).body).toMatchObject({
      error: { code: 'VALIDATION_ERROR', fields: { body: 'MISSING_REQUIRED_FIELD' } },
    });
    expect((await operator.post(CHAT_DESK_API.note(999_999_999), chatMessage('x'))).status).toBe(404);
  });

  it('lists mine, unassigned and all, and tells a colleague live and by mail when given a conversation', async () => {
    const { client: me, person: mePerson } = await signedInOperator(api);
    const { client: colleague, person: colleaguePerson } = await signedInOperator(api);
    const { client: member } = await api.member();
    const colleagueId = (
      await api
        .db()
        .query<{ id: string }>('SELECT id::text AS id FROM accounts WHERE email = $1', [colleaguePerson.email])
    )[0]?.id as string;
    const myId = (
      await api.db().query<{ id: string }>('SELECT id::text AS id FROM accounts WHERE email = $1', [mePerson.email])
    )[0]?.id as string;
    const team = (await me.get(CHAT_DESK_API.team)).body.team as { id: string; name: string }[];
    expect(team.map((t) => t.id)).toEqual(expect.arrayContaining([myId, colleagueId]));

    const { conversationId: taken } = await visitorWithConversation(api, 'one');
    const { conversationId: handed } = await visitorWithConversation(api, 'two');
    const { conversationId: left } = await visitorWithConversation(api, 'three');
    const colleagueLive = await consoleStream(colleague);
    try {
      await colleagueLive.ready();
      expect((await me.post(CHAT_DESK_API.assign(taken), { assignee: myId })).body.conversation).toMatchObject({
        assignee: { id: myId, name: mePerson.name },
      });
      await me.post(CHAT_DESK_API.assign(handed), { assignee: colleagueId });
      await colleagueLive.until(() =>
        expect(colleagueLive.of('conversation')).toContainEqual(
          expect.objectContaining({ id: handed, assignee: { id: colleagueId, name: colleaguePerson.name } }),
        ),
      );
    } finally {
      await colleagueLive.close();
    }
    // Their first mail confirmed their address when they registered.
    const mail = await api.mail().waitFor(colleaguePerson.email, 1);
    expect(mail.subject).toContain(mePerson.name);
    expect(mail.text).toContain(`/console/chat?conversation=${handed}`);
    // Taking one oneself mails nobody.
    await api.runJobs();
    expect(api.mail().mails.filter((m) => m.to.includes(mePerson.email) && m.subject.includes('handed'))).toEqual([]);

    const ids = async (view: string, client = me) =>
      (
        (await client.get(`${CONSOLE_CHAT_API.conversations}?view=${view}`)).body.conversations as ConsoleConversation[]
      ).map((c) => c.id);
    expect(await ids('mine')).toEqual([taken]);
    expect(await ids('mine', colleague)).toEqual([handed]);
    const unassigned = await ids('unassigned');
    expect(unassigned).toContain(left);
    expect(unassigned).not.toContain(taken);
    expect(unassigned).not.toContain(handed);
    expect(await ids('all')).toEqual(expect.arrayContaining([taken, handed, left]));

    // Back to nobody; junk and outsiders are refused.
    await me.post(CHAT_DESK_API.assign(taken), { assignee: null });
    expect(await ids('mine')).toEqual([]);
    const memberId = (
      await api.db().query<{ id: string }>("SELECT id::text AS id FROM accounts WHERE role = 'member' LIMIT 1")
    )[0]?.id;
    expect((await me.post(CHAT_DESK_API.assign(left), { assignee: memberId })).body).toEqual({
      error: { code: 'INVALID_ASSIGNEE', fields: { assignee: 'INVALID_ASSIGNEE' } },
    });
    expect((await me.post(CHAT_DESK_API.assign(left), { assignee: 'nobody' })).status).toBe(400);
    expect((await me.post(CHAT_DESK_API.assign(left), {})).status).toBe(400);
    expect((await me.get(`${CONSOLE_CHAT_API.conversations}?view=theirs`)).status).toBe(400);
    expect((await me.post(CHAT_DESK_API.assign(999_999_999), { assignee: null })).status).toBe(404);
    expect((await member.post(CHAT_DESK_API.assign(left), { assignee: null })).status).toBe(403);
  });
});
