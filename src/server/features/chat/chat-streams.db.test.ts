import { expect, it } from 'vitest';
import { CHAT_API, CONSOLE_CHAT_API } from '#common/chat-api.ts';
import { describeApi, type TestClient } from '#tests/support/api.ts';
import {
  chatMessage,
  consoleStream,
  openStream,
  signedInOperator,
  visitorStream,
  visitorWithConversation,
} from '#tests/support/chat.ts';

const bodies = (events: { body?: unknown }[]) => events.map((event) => event.body);

describeApi('chat event streams', (api) => {
  it('sends the whole conversation to a stream opened without an id, then ready, with ids in order', async () => {
    const { visitor } = await visitorWithConversation(api, 'first');
    await visitor.post(CHAT_API.messages, chatMessage('second'));
    const stream = await visitorStream(visitor);
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('Content-Type')).toMatch(/^text\/event-stream/);
      expect(stream.response.headers.get('Cache-Control')).toBe('no-store');
      expect(stream.response.headers.get('X-Accel-Buffering')).toBe('no');
      expect(stream.response.headers.get('Connection')).toBeNull();
      await stream.ready();
      expect(stream.retry).toBeGreaterThan(0);
      expect(bodies(stream.of('message'))).toEqual(['first', 'second']);
      const ids = stream.events.filter((event) => event.id).map((event) => Number(event.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(stream.of('conversation').at(-1)).toMatchObject({ status: 'open', ended: false });
    } finally {
      await stream.close();
    }
  });

  it('resends exactly what came after the Last-Event-ID (or ?after=) a reconnecting browser sends', async () => {
    const { visitor, first } = await visitorWithConversation(api, 'one');
    const two = await visitor.post(CHAT_API.messages, chatMessage('two'));
    await visitor.post(CHAT_API.messages, chatMessage('three'));
    const twoId = (two.body.message as { id: number }).id;

    const afterFirst = await visitorStream(visitor, { 'Last-Event-ID': String(first.id) });
    const afterTwo = await visitorStream(visitor, { 'Last-Event-ID': String(twoId) });
    const byQuery = await openAfter(visitor, twoId);
    try {
      await Promise.all([afterFirst.ready(), afterTwo.ready(), byQuery.ready()]);
      expect(bodies(afterFirst.of('message'))).toEqual(['two', 'three']);
      expect(bodies(afterTwo.of('message'))).toEqual(['three']);
      expect(bodies(byQuery.of('message'))).toEqual(['three']);

      // At the position `ready` gave, nothing is resent; what comes later is.
      const ready = afterTwo.events.find((event) => event.event === 'ready');
      const resumed = await visitorStream(visitor, { 'Last-Event-ID': ready?.id as string });
      try {
        await resumed.ready();
        expect(resumed.of('message')).toEqual([]);
        await visitor.post(CHAT_API.messages, chatMessage('four'));
        await resumed.until(() => expect(bodies(resumed.of('message'))).toEqual(['four']));
      } finally {
        await resumed.close();
      }
    } finally {
      await Promise.all([afterFirst.close(), afterTwo.close(), byQuery.close()]);
    }
  });

  it('ignores an id that is not a position', async () => {
    const { visitor } = await visitorWithConversation(api, 'only');
    const stream = await visitorStream(visitor, { 'Last-Event-ID': 'drop table' });
    try {
      await stream.ready();
      expect(bodies(stream.of('message'))).toEqual(['only']);
    } finally {
      await stream.close();
    }
  });

  it("delivers an operator's reply to the visitor and the visitor's message to the console, live", async () => {
    const { visitor, conversationId } = await visitorWithConversation(api, 'Is the shop open on Sunday?');
    const { client: operator } = await signedInOperator(api);
    const visitorEvents = await visitorStream(visitor);
    const consoleEvents = await consoleStream(operator);
    try {
      await Promise.all([visitorEvents.ready(), consoleEvents.ready()]);
      // The visitor sees the team come online.
      await visitorEvents.until(() =>
        expect(visitorEvents.of<{ operatorsOnline: boolean }>('presence').at(-1)?.operatorsOnline).toBe(true),
      );

      const reply = await operator.post(CONSOLE_CHAT_API.reply(conversationId), chatMessage('Yes, from 10 to 16.'));
      expect(reply.status).toBe(201);
      await visitorEvents.until(() =>
        expect(visitorEvents.of('message').at(-1)).toMatchObject({ author: 'operator', body: 'Yes, from 10 to 16.' }),
      );
      await visitor.post(CHAT_API.messages, chatMessage('Thank you!'));
      await consoleEvents.until(() =>
        expect(consoleEvents.of('message').map((m) => [m.conversationId, m.author, m.body])).toEqual([
          [conversationId, 'operator', 'Yes, from 10 to 16.'],
          [conversationId, 'visitor', 'Thank you!'],
        ]),
      );
      await consoleEvents.until(() =>
        expect(consoleEvents.of('conversation').at(-1)).toMatchObject({
          id: conversationId,
          unread: 2,
          lastMessage: { author: 'visitor', excerpt: 'Thank you!' },
        }),
      );
    } finally {
      await Promise.all([visitorEvents.close(), consoleEvents.close()]);
    }
    // With the console closed, nobody is online.
    const after = await visitor.post(CHAT_API.messages, chatMessage('Anyone?'));
    expect(after.body.conversation).toMatchObject({ operatorsOnline: false });
  });

  it('sends heartbeats while nothing happens', async () => {
    const app = api.app({ settings: { chatStreams: { heartbeatMs: 50, lifetimeMs: 60_000 } } });
    const client = api.client(app);
    await client.post(CHAT_API.messages, chatMessage('hello'));
    const stream = await visitorStream(client);
    try {
      await stream.ready();
      await stream.until(() => expect(stream.heartbeats).toBeGreaterThanOrEqual(3));
    } finally {
      await stream.close();
    }
  });

  it('refuses a stream to a browser without a conversation', async () => {
    const answer = await api.client().get(CHAT_API.stream);
    expect([answer.status, answer.body]).toEqual([401, { error: { code: 'UNAUTHORIZED' } }]);
  });

  it('ends a stream after its lifetime, so that the browser reconnects', async () => {
    const app = api.app({ settings: { chatStreams: { heartbeatMs: 1_000, lifetimeMs: 200 } } });
    const client = api.client(app);
    await client.post(CHAT_API.messages, chatMessage('hello'));
    const stream = await visitorStream(client);
    await stream.until(() => expect(stream.ended).toBe(true));
    expect(bodies(stream.of('message'))).toEqual(['hello']);
  });

  it('tells every tab when the visitor ends the conversation, and closes their streams', async () => {
    const { visitor } = await visitorWithConversation(api);
    const tab = await visitorStream(visitor);
    try {
      await tab.ready();
      await visitor.post(CHAT_API.end, {});
      await tab.until(() => expect(tab.ended).toBe(true));
      expect(tab.of('conversation').at(-1)).toMatchObject({ ended: true, status: 'closed' });
    } finally {
      await tab.close();
    }
  });

  it('keeps at most ten streams of one conversation open on an instance', async () => {
    const { visitor } = await visitorWithConversation(api);
    const streams = [];
    try {
      for (let i = 0; i < 11; i++) streams.push(await visitorStream(visitor));
      await Promise.all(streams.map((stream) => stream.ready().catch(() => {})));
      await streams[0]?.until((first) => expect(first.ended).toBe(true));
      expect(streams.slice(1).every((stream) => !stream.ended)).toBe(true);
    } finally {
      await Promise.all(streams.map((stream) => stream.close()));
    }
  });
});

const openAfter = (client: TestClient, after: number) => openStream(client, `${CHAT_API.stream}?after=${after}`);
