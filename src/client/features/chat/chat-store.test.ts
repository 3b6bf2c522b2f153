import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CHAT_API,
  CHAT_EVENTS,
  type ChatMessage,
  type SendAnswer,
  type VisitorChatAnswer,
  type VisitorConversation,
} from '#common/chat-api.ts';
import type { FakeStream } from '#tests/support/fake-event-stream.ts';

const streams = vi.hoisted(() => [] as FakeStream[]);
vi.mock('#client/lib/event-stream.ts', async () =>
  (await import('#tests/support/fake-event-stream.ts')).fakeEventStreams(streams),
);

const conversation = (change: Partial<VisitorConversation> = {}): VisitorConversation => ({
  status: 'open',
  ended: false,
  blocked: false,
  operatorsOnline: true,
  email: null,
  accountBound: false,
  operatorReadId: 0,
  visitorReadId: 0,
  ...change,
});
const message = (id: number, author: ChatMessage['author'] = 'operator', clientMessageId = `m${id}`): ChatMessage => ({
  id,
  author,
  body: `message ${id}`,
  clientMessageId,
  createdAt: '2026-11-25T10:00:00Z',
});

type Answer = [status: number, body: unknown];
/** The chat's server as fetch reaches it: an answer per path (a function gets the posted body), every call kept. */
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

/** The page: the chat's marker cookie or not, visible or not, and the listeners the store adds. */
function page({ active = true, visible = true } = {}) {
  const listeners = new Map<string, () => void>();
  const document = {
    cookie: active ? 'lang=en; chat_active=1' : 'lang=en',
    visibilityState: visible ? 'visible' : 'hidden',
    documentElement: { lang: 'en' },
    addEventListener: (name: string, listener: () => void) => listeners.set(name, listener),
  };
  vi.stubGlobal('document', document);
  vi.stubGlobal('window', {
    location: { pathname: '/en/contact' },
    addEventListener: (name: string, listener: () => void) => listeners.set(name, listener),
  });
  return {
    setVisible(visible: boolean) {
      document.visibilityState = visible ? 'visible' : 'hidden';
      listeners.get('visibilitychange')?.();
    },
    fire: (name: string) => listeners.get(name)?.(),
  };
}

const open = (messages: ChatMessage[] = [], cursor = 10, change: Partial<VisitorConversation> = {}): Answer => [
  200,
  { conversation: conversation(change), messages, cursor } satisfies VisitorChatAnswer,
];

// The store holds one page's chat: each test loads the module afresh.
let chat: typeof import('./chat-store.ts');
beforeEach(async () => {
  streams.length = 0;
  vi.resetModules();
  chat = await import('./chat-store.ts');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const latestStream = () => streams.at(-1) as FakeStream;
/** An event from the stream the store follows now. */
const streamed = (name: string, data: unknown) =>
  (latestStream().options.events[name] as (data: unknown) => void)(data);

describe('chat store: loading', () => {
  it('asks nothing of the server in a browser without a conversation', async () => {
    page({ active: false });
    const { calls } = server({});
    await chat.load();
    expect(chat.currentChat()).toMatchObject({ loaded: true, conversation: null, connection: 'off' });
    expect(calls).toEqual([]);
  });

  it('reads the conversation and follows it from the cursor of that answer', async () => {
    page();
    server({ [CHAT_API.conversation]: open([message(2), message(1, 'visitor')], 12) });
    await chat.load();
    expect(chat.currentChat()).toMatchObject({ loaded: true, conversation: conversation(), ended: false });
    expect(chat.currentChat().messages.map((m) => m.id)).toEqual([1, 2]);
    expect(streams.map(({ path, after }) => ({ path, after }))).toEqual([{ path: CHAT_API.stream, after: 12 }]);
  });

  it('follows nothing while the page is hidden, and starts when it is shown', async () => {
    const browser = page({ visible: false });
    server({ [CHAT_API.conversation]: open() });
    chat.start();
    await vi.waitFor(() => expect(chat.currentChat().loaded).toBe(true));
    expect(streams).toEqual([]);
    browser.setVisible(true);
    expect(streams).toHaveLength(1);
  });

  it('forgets a conversation the server no longer has', async () => {
    page();
    server({ [CHAT_API.conversation]: [200, { conversation: null, messages: [], cursor: 0 }] });
    await chat.load();
    expect(chat.currentChat()).toMatchObject({ loaded: true, conversation: null, messages: [], ended: false });
    expect(streams).toEqual([]);
  });

  it('counts as loaded when the server cannot be reached', async () => {
    page();
    server({ [CHAT_API.conversation]: [503, null] });
    await chat.load();
    expect(chat.currentChat()).toMatchObject({ loaded: true, conversation: null });
  });

  it('starts once per page', async () => {
    page();
    const { calls } = server({ [CHAT_API.conversation]: open() });
    chat.start();
    chat.start();
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    expect(calls).toHaveLength(1);
  });
});

describe('chat store: sending', () => {
  it('shows a message at once, then the stored one in its place, and follows the new conversation', async () => {
    page({ active: false });
    const { calls } = server({
      [CHAT_API.messages]: (body) => [
        200,
        {
          message: { ...message(5, 'visitor'), clientMessageId: (body as { clientMessageId: string }).clientMessageId },
          conversation: conversation(),
        } satisfies SendAnswer,
      ],
    });
    chat.send('Hello');
    expect(chat.currentChat().pending).toEqual([{ clientMessageId: expect.any(String), body: 'Hello', failed: null }]);
    await vi.waitFor(() => expect(chat.currentChat().pending).toEqual([]));
    expect(chat.currentChat().messages.map((m) => m.id)).toEqual([5]);
    expect(chat.currentChat().conversation).toEqual(conversation());
    expect(calls[0]?.body).toEqual({
      body: 'Hello',
      clientMessageId: chat.currentChat().messages[0]?.clientMessageId,
      page: '/en/contact',
      language: 'en',
    });
    expect(streams).toHaveLength(1);
  });

  it.each([
    [429, { error: { code: 'TOO_MANY_REQUESTS' } }, 'tooMany'],
    [400, { error: { code: 'VALIDATION_ERROR', fields: { body: 'VALIDATION_ERROR' } } }, 'tooLong'],
    [503, null, 'send'],
  ] as const)(
    'marks a message the server answered with %i as failed (%j), saying why',
    async (status, body, problem) => {
      page({ active: false });
      server({ [CHAT_API.messages]: [status, body] });
      chat.send('Hello');
      await vi.waitFor(() => expect(chat.currentChat().pending[0]?.failed).toBe(problem));
      expect(chat.currentChat().messages).toEqual([]);
    },
  );

  it('sends a failed message again under the same id', async () => {
    page({ active: false });
    let refuse = true;
    const { calls } = server({
      [CHAT_API.messages]: (body) =>
        refuse
          ? [503, null]
          : [
              200,
              {
                message: {
                  ...message(1, 'visitor'),
                  clientMessageId: (body as { clientMessageId: string }).clientMessageId,
                },
                conversation: conversation(),
              },
            ],
    });
    chat.send('Hello');
    await vi.waitFor(() => expect(chat.currentChat().pending[0]?.failed).toBe('send'));
    const id = chat.currentChat().pending[0]?.clientMessageId as string;
    refuse = false;
    chat.retry(id);
    expect(chat.currentChat().pending[0]?.failed).toBeNull();
    await vi.waitFor(() => expect(chat.currentChat().pending).toEqual([]));
    expect(calls.map((call) => (call.body as { clientMessageId: string }).clientMessageId)).toEqual([id, id]);
    chat.retry('unknown');
    expect(calls).toHaveLength(2);
  });

  it('reads the conversation again when the server no longer knows this browser', async () => {
    page();
    const { paths } = server({
      [CHAT_API.messages]: [401, { error: { code: 'UNAUTHORIZED' } }],
      [CHAT_API.conversation]: [200, { conversation: null, messages: [], cursor: 0 }],
    });
    chat.send('Hello');
    await vi.waitFor(() => expect(paths()).toEqual([CHAT_API.messages, CHAT_API.conversation]));
  });
});

describe('chat store: the stream', () => {
  /** A page that has started the chat and follows its conversation. */
  async function following(messages: ChatMessage[] = []) {
    const browser = page();
    server({ [CHAT_API.conversation]: open(messages) });
    chat.start();
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    return browser;
  }

  it('adds what arrives in id order, once, and drops what was pending under the same client id', async () => {
    await following([message(3)]);
    streamed(CHAT_EVENTS.message, message(5));
    streamed(CHAT_EVENTS.message, message(4));
    streamed(CHAT_EVENTS.message, message(5));
    expect(chat.currentChat().messages.map((m) => m.id)).toEqual([3, 4, 5]);
  });

  it('drops a pending message when the stream brings it first', async () => {
    await following();
    // The send's own answer is lost: the stream brought the message.
    server({ [CHAT_API.messages]: [503, null] });
    chat.send('Hi');
    const { clientMessageId } = chat.currentChat().pending[0] as { clientMessageId: string };
    streamed(CHAT_EVENTS.message, message(11, 'visitor', clientMessageId));
    expect(chat.currentChat().pending).toEqual([]);
    expect(chat.currentChat().messages.map((m) => m.clientMessageId)).toEqual([clientMessageId]);
  });

  it('shows the connection as the stream reports it', async () => {
    await following();
    latestStream().options.onState?.('open');
    expect(chat.currentChat().connection).toBe('open');
    latestStream().options.onState?.('lost');
    expect(chat.currentChat().connection).toBe('lost');
  });

  it('takes the team’s presence and changes of the conversation', async () => {
    await following();
    streamed(CHAT_EVENTS.presence, { operatorsOnline: false });
    expect(chat.currentChat().conversation?.operatorsOnline).toBe(false);
    streamed(CHAT_EVENTS.conversation, conversation({ status: 'closed', operatorsOnline: false }));
    expect(chat.currentChat().conversation?.status).toBe('closed');
  });

  it('forgets the conversation when it was ended in another tab, and stops following it', async () => {
    await following([message(1)]);
    const stream = latestStream();
    streamed(CHAT_EVENTS.conversation, conversation({ ended: true }));
    expect(chat.currentChat()).toMatchObject({ conversation: null, messages: [], ended: true, connection: 'off' });
    expect(stream.closed).toBe(true);
  });

  it('when the stream is refused, asks for the conversation and goes on only if it is still there', async () => {
    await following();
    server({ [CHAT_API.conversation]: open() });
    expect(await latestStream().options.onRefused?.()).toBe(true);
    server({ [CHAT_API.conversation]: [200, { conversation: null, messages: [], cursor: 0 }] });
    expect(await latestStream().options.onRefused?.()).toBe(false);
  });

  it('lets the stream go 30 s after the page was hidden, and follows again from where it was when shown', async () => {
    const browser = await following();
    vi.useFakeTimers();
    const first = latestStream();
    first.cursor = 17;
    browser.setVisible(false);
    vi.advanceTimersByTime(29_999);
    expect(first.closed).toBe(false);
    browser.setVisible(true);
    vi.advanceTimersByTime(60_000);
    expect(first.closed).toBe(false);
    browser.setVisible(false);
    vi.advanceTimersByTime(30_000);
    expect(first.closed).toBe(true);
    expect(chat.currentChat().connection).toBe('off');
    browser.setVisible(true);
    expect(streams).toHaveLength(2);
    expect(latestStream().after).toBe(17);
  });

  it('opens a new stream when the browser is back online', async () => {
    const browser = await following();
    const first = latestStream();
    browser.fire('online');
    expect(first.closed).toBe(true);
    expect(streams).toHaveLength(2);
  });
});

describe('chat store: seen and unread', () => {
  it('counts the team’s messages after what the visitor has seen', () => {
    const state = chat.currentChat();
    expect(chat.unreadOf(state)).toBe(0);
    expect(
      chat.unreadOf({
        ...state,
        conversation: conversation({ visitorReadId: 2 }),
        messages: [message(1), message(2), message(3, 'visitor'), message(4), message(5, 'system')],
      }),
    ).toBe(2);
  });

  it('marks what the team wrote as seen while the panel is open and the page visible, once per message', async () => {
    const browser = page();
    const { calls } = server({
      [CHAT_API.conversation]: open([message(1), message(2)]),
      [CHAT_API.read]: (body) => [
        200,
        { conversation: conversation({ visitorReadId: (body as { upTo: number }).upTo }) },
      ],
    });
    chat.start();
    await vi.waitFor(() => expect(chat.currentChat().messages).toHaveLength(2));
    const reads = () => calls.filter((call) => call.path === CHAT_API.read).map((call) => call.body);
    expect(reads()).toEqual([]);
    // Twice before the server has answered the first time: one request.
    chat.setPanelOpen(true);
    chat.setPanelOpen(true);
    await vi.waitFor(() => expect(chat.currentChat().conversation?.visitorReadId).toBe(2));
    chat.setPanelOpen(true);
    expect(reads()).toEqual([{ upTo: 2 }]);

    browser.setVisible(false);
    streamed(CHAT_EVENTS.message, message(3));
    expect(reads()).toHaveLength(1);
    browser.setVisible(true);
    await vi.waitFor(() => expect(chat.unreadOf(chat.currentChat())).toBe(0));
    expect(reads()).toEqual([{ upTo: 2 }, { upTo: 3 }]);

    chat.setPanelOpen(false);
    streamed(CHAT_EVENTS.message, message(4));
    expect(reads()).toHaveLength(2);
    expect(chat.unreadOf(chat.currentChat())).toBe(1);
  });
});

describe('chat store: the visitor’s address and the end', () => {
  it('saves the address for replies, or says it was refused', async () => {
    page();
    server({ [CHAT_API.email]: [200, { conversation: conversation({ email: 'ada@example.com' }) }] });
    expect(await chat.saveEmail('ada@example.com')).toBeNull();
    expect(chat.currentChat().conversation?.email).toBe('ada@example.com');
    server({ [CHAT_API.email]: [400, { error: { code: 'VALIDATION_ERROR', fields: { email: 'INVALID_EMAIL' } } }] });
    expect(await chat.saveEmail('nope')).toBe('email');
  });

  it('ends the conversation, and keeps it when the server could not end it', async () => {
    page();
    server({ [CHAT_API.conversation]: open([message(1)]), [CHAT_API.end]: [503, null] });
    await chat.load();
    expect(await chat.end()).toBe(false);
    expect(chat.currentChat().conversation).not.toBeNull();
    server({ [CHAT_API.end]: [200, {}] });
    expect(await chat.end()).toBe(true);
    expect(chat.currentChat()).toMatchObject({ conversation: null, messages: [], ended: true });
    expect(streams[0]?.closed).toBe(true);
  });
});
