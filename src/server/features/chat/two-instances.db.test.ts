import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { withId } from '#common/api-paths.ts';
import { CHAT_API, CONSOLE_CHAT_API, type SendAnswer } from '#common/chat-api.ts';
import { CHAT_HOURS_API, TYPING_EVENT } from '#common/chat-hours.ts';
import { STAFF_API } from '#common/staff-api.ts';
import { type Database, openDatabase } from '#server/platform/db/database.ts';
import { chatMessage } from '#tests/support/chat.ts';
import { type TestStore, targets } from '#tests/support/databases.ts';
import type { EventStreamReader } from '#tests/support/event-stream.ts';
import { HttpClient, type Instance, seedStaff, startInstance } from '#tests/support/instances.ts';

const postgres = targets.find((target) => target.kind === 'postgres');

/**
 * Two server processes on one PostgreSQL, as behind a load balancer: whatever instance a visitor
 * and an operator reach, each sees the other's messages live. Nothing but the database joins them.
 */
describe.skipIf(!postgres || postgres.skip)('chat across two server processes on one PostgreSQL', () => {
  let store: TestStore;
  let db: Database;
  const instances: Instance[] = [];
  let a: Instance;
  let b: Instance;
  const operator = new HttpClient();

  beforeAll(async () => {
    store = await (postgres as NonNullable<typeof postgres>).createStore();
    // Opening it creates the tables before the instances start.
    db = await openDatabase(store.options);
    await seedStaff(db, operator);
    const url = (name: string) => {
      const address = new URL(store.options.databaseUrl as string);
      address.searchParams.set('application_name', name);
      return address.href;
    };
    [a, b] = await Promise.all([
      startInstance({ DATABASE_URL: url('chat-a') }),
      startInstance({ DATABASE_URL: url('chat-b') }),
    ]);
    instances.push(a, b);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await db?.close();
    await store?.drop();
  });

  it('delivers a visitor on one instance to an operator on the other, and the reply back, live', {
    timeout: 30_000,
  }, async () => {
    const visitor = new HttpClient();
    const consoleOnB = await operator.stream(b.url, CONSOLE_CHAT_API.stream);
    try {
      await consoleOnB.ready();
      const first = await visitor.post<SendAnswer>(a.url, CHAT_API.messages, chatMessage('Written on instance A'));
      expect(first.status).toBe(201);
      // The operator's console is open on B: the visitor on A is told someone is online.
      expect(first.body.conversation.operatorsOnline).toBe(true);
      await consoleOnB.until(() =>
        expect(consoleOnB.of('message').map((m) => m.body)).toEqual(['Written on instance A']),
      );
      const conversationId = consoleOnB.of<{ conversationId: number }>('message')[0]?.conversationId as number;

      const visitorOnA = await visitor.stream(a.url, CHAT_API.stream);
      try {
        await visitorOnA.ready();
        const reply = await operator.post(b.url, CONSOLE_CHAT_API.reply(conversationId), chatMessage('Answered on B'));
        expect(reply.status).toBe(201);
        await visitorOnA.until(() =>
          expect(visitorOnA.of('message').map((m) => [m.author, m.body])).toEqual([
            ['visitor', 'Written on instance A'],
            ['operator', 'Answered on B'],
          ]),
        );
        // And the other way round: the visitor now writes through B, the operator reads on A.
        const consoleOnA = await operator.stream(a.url, CONSOLE_CHAT_API.stream);
        try {
          await consoleOnA.ready();
          await visitor.post(b.url, CHAT_API.messages, chatMessage('Written on B this time'));
          await consoleOnA.until(() =>
            expect(consoleOnA.of('message').map((m) => m.body)).toEqual(['Written on B this time']),
          );
          await visitorOnA.until(() => expect(visitorOnA.of('message').at(-1)?.body).toBe('Written on B this time'));
        } finally {
          await consoleOnA.close();
        }
      } finally {
        await visitorOnA.close();
      }
    } finally {
      await consoleOnB.close();
    }
  });

  it('passes typing from a visitor on one instance to an operator on the other, and back, without storing it', {
    timeout: 30_000,
  }, async () => {
    const visitor = new HttpClient();
    await visitor.post(a.url, CHAT_API.messages, chatMessage('About to type more'));
    const [row] = await db.query<{ id: number }>('SELECT max(id)::integer AS id FROM chat_conversations');
    const conversationId = row?.id as number;
    const consoleOnB = await operator.stream(b.url, CONSOLE_CHAT_API.stream);
    const visitorOnA = await visitor.stream(a.url, CHAT_API.stream);
    try {
      await Promise.all([consoleOnB.ready(), visitorOnA.ready()]);
      expect((await visitor.post(a.url, CHAT_HOURS_API.typing, {})).status).toBe(200);
      await consoleOnB.until(() => expect(consoleOnB.of(TYPING_EVENT)).toContainEqual({ conversationId }));
      expect((await operator.post(b.url, CHAT_HOURS_API.operatorTyping(conversationId), {})).status).toBe(200);
      await visitorOnA.until(() => expect(visitorOnA.of(TYPING_EVENT)).toHaveLength(1));
      const [messages] = await db.query<{ n: number }>(
        'SELECT count(*)::integer AS n FROM chat_messages WHERE conversation_id = $1',
        [conversationId],
      );
      expect(messages?.n).toBe(1);
    } finally {
      await consoleOnB.close();
      await visitorOnA.close();
    }
  });

  it("ends an operator's console stream on one instance when they are demoted or sign out on the other", {
    timeout: 30_000,
  }, async () => {
    const admin = new HttpClient();
    await seedStaff(db, admin, 'admin', 'Ada Admin');
    const visitor = new HttpClient();
    const demoted = new HttpClient();
    const demotedId = await seedStaff(db, demoted);
    const signedOut = new HttpClient();
    await seedStaff(db, signedOut);
    const streams = await Promise.all(
      [demoted, signedOut, operator].map((client) => client.stream(a.url, CONSOLE_CHAT_API.stream)),
    );
    const [demotedOnA, signedOutOnA, unaffectedOnA] = streams as [
      EventStreamReader,
      EventStreamReader,
      EventStreamReader,
    ];
    try {
      await Promise.all(streams.map((stream) => stream.ready()));
      expect((await admin.post(b.url, withId(STAFF_API.role, demotedId), { role: 'member' })).status).toBe(200);
      expect((await signedOut.post(b.url, ACCOUNT_API.logout)).status).toBe(200);
      expect((await visitor.post(b.url, CHAT_API.messages, chatMessage('Written after both'))).status).toBe(201);
      await demotedOnA.until(() => expect(demotedOnA.ended).toBe(true), 5_000);
      await signedOutOnA.until(() => expect(signedOutOnA.ended).toBe(true), 5_000);
      await unaffectedOnA.until(() =>
        expect(unaffectedOnA.of('message').map((m) => m.body)).toContain('Written after both'),
      );
      for (const stream of [demotedOnA, signedOutOnA]) {
        expect(stream.of('message').map((m) => m.body)).not.toContain('Written after both');
      }
      expect(unaffectedOnA.ended).toBe(false);
    } finally {
      await Promise.all(streams.map((stream) => stream.close()));
    }
  });

  it("catches an instance's open streams up after its listening connection was dropped", {
    timeout: 30_000,
  }, async () => {
    const visitor = new HttpClient();
    await visitor.post(a.url, CHAT_API.messages, chatMessage('Before the drop'));
    const visitorOnB = await visitor.stream(b.url, CHAT_API.stream);
    try {
      await visitorOnB.ready();
      const [ended] = await db.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::integer AS n FROM pg_stat_activity WHERE application_name = 'chat-b listen'`,
      );
      expect(ended?.n).toBe(1);
      // Sent while B is not listening (or just back): B's stream must show it either way.
      await visitor.post(a.url, CHAT_API.messages, chatMessage('During the drop'));
      await visitorOnB.until(() =>
        expect(visitorOnB.of('message').map((m) => m.body)).toEqual(['Before the drop', 'During the drop']),
      );
      await visitor.post(a.url, CHAT_API.messages, chatMessage('After the drop'));
      await visitorOnB.until(() => expect(visitorOnB.of('message').at(-1)?.body).toBe('After the drop'));
      expect(b.output()).toMatch(/listening connection is back/);
    } finally {
      await visitorOnB.close();
    }
  });
});
