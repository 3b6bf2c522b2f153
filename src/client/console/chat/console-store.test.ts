import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CHAT_EVENTS,
  CONSOLE_CHAT_API,
  type ConsoleConversation,
  type ConsoleListAnswer,
  type ConsoleMessage,
  type ConsoleThreadAnswer,
} from '#common/chat-api.ts';
import type { FakeStream } from '#tests/support/fake-event-stream.ts';

const streams = vi.hoisted(() => [] as FakeStream[]);
vi.mock('#client/lib/event-stream.ts', async () =>
  (await import('#tests/support/fake-event-stream.ts')).fakeEventStreams(streams),
);

const conversation = (id: number, change: Partial<ConsoleConversation> = {}): ConsoleConversation => ({
  id,
  seq: 1,
  status: 'open',
  language: 'en',
  page: '/en/contact',
  createdAt: '2026-11-25T09:00:00Z',
  lastMessageAt: `2026-11-25T10:0${id}:00Z`,
  lastMessage: null,
  unread: 0,
  visitorEmail: null,
  account: null,
  blocked: false,
  visitorEnded: false,
  operatorReadId: 0,
  visitorReadId: 0,
  assignee: null,
  ...change,
});
const message = (id: number, conversationId: number, clientMessageId = `m${id}`): ConsoleMessage => ({
  id,
  conversationId,
  author: 'visitor',
  body: `message ${id}`,
  clientMessageId,
  createdAt: '2026-11-25T10:00:00Z',
  operatorName: null,
});

type Answer = [status: number, body: unknown];
/** The console's server as fetch reaches it: an answer per path (a function gets the posted body), every call kept. */
function server(answers: Record<string, Answer | ((body: unknown) => Answer)>) {
  const calls: { path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit) => {
      const body = init.body === undefined ? undefined : JSON.parse(init.body as string);
      calls.push({ path, body });
      const answer = answers[path];
      const [status, payload] = typeof answer === 'function' ? answer(body) : (answer ?? [404, null]);
      return new Response(JSON.stringify(payload), { status });
    }),
  );
  return { calls, paths: () => calls.map((call) => call.path) };
}

const list = (conversations: ConsoleConversation[], cursor = 40): Answer => [
  200,
  { conversations, operators: [{ id: 'o1', name: 'Olga' }], cursor } satisfies ConsoleListAnswer,
];
const thread = (conversation: ConsoleConversation, messages: ConsoleMessage[]): Answer => [
  200,
  { conversation, messages, cursor: 50 } satisfies ConsoleThreadAnswer,
];
const OPEN = `${CONSOLE_CHAT_API.conversations}?status=open`;
const CLOSED = `${CONSOLE_CHAT_API.conversations}?status=closed`;

let visibility = 'visible';
// The store holds the console's chat screen: each test loads the module afresh.
let store: typeof import('./console-store.ts');
beforeEach(async () => {
  streams.length = 0;
  visibility = 'visible';
  vi.stubGlobal('document', {
    get visibilityState() {
      return visibility;
    },
  });
  vi.resetModules();
  store = await import('./console-store.ts');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const state = () => store.currentConsoleChat();
const ids = () => state().conversations.map((c) => c.id);
const latestStream = () => streams.at(-1) as FakeStream;
/** An event from the stream the store follows now. */
const streamed = (name: string, data: unknown) =>
  (latestStream().options.events[name] as (data: unknown) => void)(data);

describe('console store: the list', () => {
  it('shows the conversations by latest activity and follows every change from where the list was read', async () => {
    server({ [OPEN]: list([conversation(1), conversation(3), conversation(2)], 40) });
    await store.showList('open');
    expect(state()).toMatchObject({ loaded: true, status: 'open', failed: false, operators: [{ name: 'Olga' }] });
    expect(ids()).toEqual([3, 2, 1]);
    expect(streams.map(({ path, after }) => ({ path, after }))).toEqual([{ path: CONSOLE_CHAT_API.stream, after: 40 }]);
  });

  it('keeps the one stream when the other status is shown', async () => {
    server({ [OPEN]: list([conversation(1)]), [CLOSED]: list([conversation(2, { status: 'closed' })]) });
    await store.showList('open');
    await store.showList('closed');
    expect(state().status).toBe('closed');
    expect(ids()).toEqual([2]);
    expect(streams).toHaveLength(1);
  });

  it('says when the list could not be read', async () => {
    server({ [OPEN]: [503, null] });
    await store.showList('open');
    expect(state()).toMatchObject({ loaded: true, failed: true, conversations: [] });
    expect(streams).toEqual([]);
  });

  it('puts a changed conversation in its place, takes out one of another status, and ignores an outdated copy', async () => {
    server({ [OPEN]: list([conversation(1), conversation(2)]) });
    await store.showList('open');
    streamed(CHAT_EVENTS.conversation, conversation(1, { seq: 5, lastMessageAt: '2026-11-25T11:00:00Z' }));
    expect(ids()).toEqual([1, 2]);
    streamed(CHAT_EVENTS.conversation, conversation(4, { seq: 6 }));
    expect(ids()).toEqual([1, 4, 2]);
    streamed(CHAT_EVENTS.conversation, conversation(1, { seq: 3, status: 'closed' }));
    expect(ids()).toEqual([1, 4, 2]);
    streamed(CHAT_EVENTS.conversation, conversation(2, { seq: 7, status: 'closed' }));
    expect(ids()).toEqual([1, 4]);
  });

  it('shows the team online and the connection as the stream reports them', async () => {
    server({ [OPEN]: list([]) });
    await store.showList('open');
    streamed(CHAT_EVENTS.presence, { operators: [{ id: 'o2', name: 'Pim' }] });
    latestStream().options.onState?.('lost');
    expect(state()).toMatchObject({ operators: [{ id: 'o2', name: 'Pim' }], connection: 'lost' });
  });

  it('when the stream is refused, goes on only while the console may still read the chat', async () => {
    server({ [OPEN]: list([]), [CONSOLE_CHAT_API.conversations]: [200, list([])[1]] });
    await store.showList('open');
    expect(await latestStream().options.onRefused?.()).toBe(true);
    server({ [CONSOLE_CHAT_API.conversations]: [403, { error: { code: 'FORBIDDEN' } }] });
    expect(await latestStream().options.onRefused?.()).toBe(false);
  });

  it('starts afresh after it stopped', async () => {
    server({ [OPEN]: list([conversation(1)]) });
    await store.showList('open');
    store.stop();
    expect(streams[0]?.closed).toBe(true);
    expect(state()).toMatchObject({ loaded: false, conversations: [], selected: null });
    await store.showList('open');
    expect(streams).toHaveLength(2);
  });
});

describe('console store: a conversation', () => {
  async function selected(messages: ConsoleMessage[] = [message(1, 7)], change: Partial<ConsoleConversation> = {}) {
    const api = server({
      [OPEN]: list([conversation(7, change)]),
      [CONSOLE_CHAT_API.conversation(7)]: thread(conversation(7, change), messages),
      [CONSOLE_CHAT_API.read(7)]: (body) => [
        200,
        { conversation: conversation(7, { ...change, seq: 2, operatorReadId: (body as { upTo: number }).upTo }) },
      ],
    });
    await store.showList('open');
    await store.select(7);
    return api;
  }
  const reads = (calls: { path: string; body: unknown }[]) =>
    calls.filter((call) => call.path === CONSOLE_CHAT_API.read(7)).map((call) => call.body);

  it('shows the thread and marks it read for the team, once', async () => {
    const { calls } = await selected([message(2, 7), message(3, 7)]);
    expect(state().selected).toBe(7);
    expect(state().thread?.messages.map((m) => m.id)).toEqual([2, 3]);
    // An older message arrives while the first mark is on its way: no second one.
    streamed(CHAT_EVENTS.message, message(1, 7));
    await vi.waitFor(() => expect(state().thread?.conversation.operatorReadId).toBe(3));
    await store.select(7);
    expect(reads(calls)).toEqual([{ upTo: 3 }]);
  });

  it('marks nothing read while the console tab is hidden, and reads it again when shown', async () => {
    visibility = 'hidden';
    const { calls } = await selected();
    expect(reads(calls)).toEqual([]);
    visibility = 'visible';
    store.revisit();
    await vi.waitFor(() => expect(reads(calls)).toEqual([{ upTo: 1 }]));
  });

  it('keeps what the stream brought while the thread was on its way', async () => {
    let answer: () => void = () => {};
    server({
      [OPEN]: list([conversation(7)]),
      [CONSOLE_CHAT_API.conversation(7)]: thread(conversation(7), [message(1, 7)]),
    });
    await store.showList('open');
    const fetch = globalThis.fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (...args: Parameters<typeof fetch>) => {
        await new Promise<void>((resolve) => (answer = resolve));
        return fetch(...args);
      }),
    );
    const selecting = store.select(7);
    streamed(CHAT_EVENTS.message, message(2, 7));
    streamed(CHAT_EVENTS.message, message(9, 8));
    answer();
    await selecting;
    expect(state().thread?.messages.map((m) => m.id)).toEqual([1, 2]);
  });

  it('shows only the conversation selected last when answers cross', async () => {
    server({
      [OPEN]: list([conversation(7), conversation(8)]),
      [CONSOLE_CHAT_API.conversation(7)]: thread(conversation(7), [message(1, 7)]),
      [CONSOLE_CHAT_API.conversation(8)]: thread(conversation(8), [message(2, 8)]),
    });
    await store.showList('open');
    // The answer about 7 comes after the one about 8.
    let answerFirst: () => void = () => {};
    const fetch = globalThis.fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (...args: Parameters<typeof fetch>) => {
        if (args[0] === CONSOLE_CHAT_API.conversation(7)) await new Promise<void>((resolve) => (answerFirst = resolve));
        return fetch(...args);
      }),
    );
    const first = store.select(7);
    await store.select(8);
    answerFirst();
    await first;
    expect(state().selected).toBe(8);
    expect(state().thread?.conversation.id).toBe(8);
  });

  it('says when the thread could not be read', async () => {
    server({
      [OPEN]: list([conversation(7)]),
      [CONSOLE_CHAT_API.conversation(7)]: [404, { error: { code: 'NOT_FOUND' } }],
    });
    await store.showList('open');
    await store.select(7);
    expect(state()).toMatchObject({ selected: 7, thread: null, failed: true });
  });

  it('adds a streamed message to the open thread once, and the team’s own reply in place of its pending copy', async () => {
    await selected();
    streamed(CHAT_EVENTS.message, message(3, 7));
    streamed(CHAT_EVENTS.message, message(3, 7));
    streamed(CHAT_EVENTS.message, message(4, 9));
    expect(state().thread?.messages.map((m) => m.id)).toEqual([1, 3]);

    server({ [CONSOLE_CHAT_API.reply(7)]: [503, null] });
    store.reply('On it');
    const { clientMessageId } = state().pending[0] as { clientMessageId: string };
    streamed(CHAT_EVENTS.message, { ...message(5, 7, clientMessageId), author: 'operator' });
    expect(state().pending).toEqual([]);
  });
});

describe('console store: replies and actions', () => {
  async function selected() {
    server({ [OPEN]: list([conversation(7)]), [CONSOLE_CHAT_API.conversation(7)]: thread(conversation(7), []) });
    await store.showList('open');
    await store.select(7);
  }

  it('shows a reply at once and the stored one in its place', async () => {
    await selected();
    const { calls } = server({
      [CONSOLE_CHAT_API.reply(7)]: (body) => [
        200,
        {
          message: { ...message(5, 7, (body as { clientMessageId: string }).clientMessageId), author: 'operator' },
          conversation: conversation(7, { seq: 3, lastMessage: { author: 'operator', excerpt: 'On it' } }),
        },
      ],
    });
    store.reply('On it');
    expect(state().pending).toEqual([{ clientMessageId: expect.any(String), body: 'On it', failed: false }]);
    await vi.waitFor(() => expect(state().pending).toEqual([]));
    expect(state().thread?.messages.map((m) => m.id)).toEqual([5]);
    expect(state().conversations[0]?.lastMessage?.excerpt).toBe('On it');
    expect(calls[0]?.body).toEqual({ body: 'On it', clientMessageId: state().thread?.messages[0]?.clientMessageId });
  });

  it('marks a reply that failed, and sends it again under the same id', async () => {
    await selected();
    const { calls } = server({ [CONSOLE_CHAT_API.reply(7)]: [503, null] });
    store.reply('On it');
    await vi.waitFor(() => expect(state().pending[0]?.failed).toBe(true));
    const id = state().pending[0]?.clientMessageId;
    store.retryReply(id as string);
    expect(state().pending[0]?.failed).toBe(false);
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls.map((call) => (call.body as { clientMessageId: string }).clientMessageId)).toEqual([id, id]);
  });

  it('sends nothing with no conversation selected', async () => {
    const { calls } = server({ [OPEN]: list([conversation(7)]) });
    await store.showList('open');
    store.reply('Hello?');
    expect(store.closeSelected()).toBe(false);
    expect(store.blockSelected(true)).toBe(false);
    expect(state().pending).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it('closes and blocks the selected conversation, and says when that failed', async () => {
    await selected();
    const { calls } = server({
      [CONSOLE_CHAT_API.close(7)]: [200, { conversation: conversation(7, { seq: 4, status: 'closed' }) }],
      [CONSOLE_CHAT_API.block(7)]: [503, null],
    });
    await store.closeSelected();
    expect(ids()).toEqual([]);
    expect(state().thread?.conversation.status).toBe('closed');
    await store.blockSelected(true);
    expect(state().failed).toBe(true);
    expect(calls.map((call) => call.body)).toEqual([{}, { blocked: true }]);
  });
});
