import { callApi } from '#client/lib/api-client.ts';
import { readCookie } from '#client/lib/cookies.ts';
import { createStore } from '#client/lib/create-store.ts';
import { type FollowedStream, followStream, type StreamState } from '#client/lib/event-stream.ts';
import { mergedById } from '#client/lib/merged-by-id.ts';
import {
  CHAT_API,
  CHAT_EVENTS,
  type ChatMessage,
  type SendAnswer,
  type VisitorChatAnswer,
  type VisitorConversation,
  type VisitorPresenceEvent,
} from '#common/chat-api.ts';
import {
  type Availability,
  CHAT_HOURS_API,
  TYPING_EVENT,
  TYPING_SEND_EVERY_MS,
  TYPING_SHOWN_MS,
} from '#common/chat-hours.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { storageEntry } from '#common/storage.ts';

/** What went wrong, as a key of the panel's `errors` texts. */
export type ChatProblem = 'send' | 'tooMany' | 'tooLong' | 'email';

export interface PendingMessage {
  clientMessageId: string;
  body: string;
  /** The address given with a first message outside office hours. */
  email?: string;
  failed: ChatProblem | null;
}

export interface ChatState {
  /** Whether the conversation (if any) has been read from the server. */
  loaded: boolean;
  conversation: VisitorConversation | null;
  messages: ChatMessage[];
  /** Sent but not yet stored (or failed), oldest first. */
  pending: PendingMessage[];
  connection: StreamState | 'off';
  /** The visitor just ended the conversation (here or in another tab). */
  ended: boolean;
  /** Office hours and the typical reply time, read when the panel opens. */
  availability: Availability | null;
  /** Someone of the team is typing a reply now. */
  teamTyping: boolean;
}

const ACTIVE_COOKIE = storageEntry('chatActive').name;
/** A hidden tab lets its stream go after this long (browsers allow few connections per site). */
const HIDDEN_GRACE_MS = 30_000;

/** What the panel shows; changed only by the functions of this module. */
const store = createStore<ChatState>({
  loaded: false,
  conversation: null,
  messages: [],
  pending: [],
  connection: 'off',
  ended: false,
  availability: null,
  teamTyping: false,
});
const { get: state, update } = store;
let stream: FollowedStream | null = null;
let cursor = 0;
let panelOpen = false;
let hiddenTimer: ReturnType<typeof setTimeout> | undefined;
let readSent = 0;
let typingShown: ReturnType<typeof setTimeout> | undefined;
let typingSentAt = 0;
let availabilityTimer: ReturnType<typeof setTimeout> | undefined;

/** What the panel shows, read outside React. */
export const currentChat = state;

export const useChat = store.use;

/** The team's messages the visitor has not seen yet. */
export function unreadOf(chat: ChatState): number {
  const seen = chat.conversation?.visitorReadId;
  if (seen === undefined) return 0;
  return chat.messages.filter((m) => m.author !== 'visitor' && m.id > seen).length;
}

export const useUnread = () => unreadOf(useChat());

/** Adds messages by id, in order, and drops what was pending under the same client id. */
function merge(messages: ChatMessage[]) {
  const arrived = new Set(messages.map((m) => m.clientMessageId));
  // The reply the team was typing is here.
  if (messages.some((m) => m.author === 'operator')) showTeamTyping(false);
  update({
    messages: mergedById(state().messages, messages),
    pending: state().pending.filter((p) => !arrived.has(p.clientMessageId)),
  });
  markSeen();
}

function forget(ended: boolean) {
  disconnect();
  cursor = 0;
  readSent = 0;
  update({ conversation: null, messages: [], pending: [], ended });
}

function receive(conversation: VisitorConversation) {
  if (conversation.ended) return forget(true);
  update({ conversation });
}

const problemOf = (code: ErrorCode, fields?: Partial<Record<string, ErrorCode>>): ChatProblem => {
  if (code === 'TOO_MANY_REQUESTS') return 'tooMany';
  if (fields?.body === 'VALIDATION_ERROR') return 'tooLong';
  if (fields?.email) return 'email';
  return 'send';
};

function connect() {
  if (stream || !state().conversation || document.visibilityState !== 'visible') return;
  stream = followStream(CHAT_API.stream, cursor, {
    events: {
      [CHAT_EVENTS.message]: (message: ChatMessage) => merge([message]),
      [CHAT_EVENTS.conversation]: receive,
      [TYPING_EVENT]: () => showTeamTyping(true),
      [CHAT_EVENTS.presence]: ({ operatorsOnline }: VisitorPresenceEvent) => {
        const { conversation } = state();
        if (conversation) update({ conversation: { ...conversation, operatorsOnline } });
      },
    },
    onState: (connection) => update({ connection }),
    // Refused: the conversation may be gone (ended elsewhere, deleted). Ask, and stop if it is.
    onRefused: async () => {
      await load();
      return state().conversation !== null;
    },
  });
}

function disconnect() {
  if (stream) cursor = stream.cursor;
  stream?.close();
  stream = null;
  if (state().connection !== 'off') update({ connection: 'off' });
}

function onVisibility() {
  clearTimeout(hiddenTimer);
  if (document.visibilityState === 'visible') {
    connect();
    markSeen();
  } else {
    hiddenTimer = setTimeout(disconnect, HIDDEN_GRACE_MS);
  }
}

/** Reads the conversation this browser has, if its marker cookie says there is one, and follows it. */
export async function load(): Promise<void> {
  if (readCookie(ACTIVE_COOKIE) !== '1') return update({ loaded: true });
  const result = await callApi<VisitorChatAnswer>(CHAT_API.conversation);
  if (!result.ok) return update({ loaded: true });
  if (!result.data.conversation) {
    forget(false);
    return update({ loaded: true });
  }
  cursor = Math.max(cursor, result.data.cursor);
  update({ loaded: true, conversation: result.data.conversation });
  merge(result.data.messages);
  connect();
}

let started = false;
/** Starts once per page: reads the conversation, if there is one, and follows it while the page is visible. */
export function start() {
  if (started) return;
  started = true;
  document.addEventListener('visibilitychange', onVisibility);
  // Back from offline (a laptop that slept): a stream that gave up is opened again.
  window.addEventListener('online', () => {
    disconnect();
    connect();
  });
  void load();
}

function showTeamTyping(typing: boolean) {
  clearTimeout(typingShown);
  if (typing) typingShown = setTimeout(() => update({ teamTyping: false }), TYPING_SHOWN_MS);
  if (state().teamTyping !== typing) update({ teamTyping: typing });
}

/** The visitor types: the team is told, at most every few seconds, once there is a conversation. */
export function typing() {
  const now = Date.now();
  if (!state().conversation || now - typingSentAt < TYPING_SEND_EVERY_MS) return;
  typingSentAt = now;
  void callApi(CHAT_HOURS_API.typing, {});
}

/**
 * Reads whether the team is there and when it is back (the panel opened), and again when that
 * changes (an opening begins or ends) while the page stays open. It sets nothing on the server.
 */
export async function loadAvailability(): Promise<void> {
  clearTimeout(availabilityTimer);
  const result = await callApi<Availability>(CHAT_HOURS_API.availability);
  if (!result.ok) return;
  update({ availability: result.data });
  const change = result.data.closesAt ?? result.data.nextOpen;
  const wait = change ? new Date(change).getTime() - Date.now() : Number.POSITIVE_INFINITY;
  // Timers longer than about 24 days fire at once; a page open that long reads it on the next opening.
  if (wait > 0 && wait < 2 ** 31 - 1) availabilityTimer = setTimeout(() => void loadAvailability(), wait + 1_000);
}

async function deliver(pending: PendingMessage) {
  const result = await callApi<SendAnswer>(CHAT_API.messages, {
    body: pending.body,
    clientMessageId: pending.clientMessageId,
    page: window.location.pathname,
    language: document.documentElement.lang,
    ...(pending.email ? { email: pending.email } : {}),
  });
  if (!result.ok) {
    update({
      pending: state().pending.map((p) =>
        p.clientMessageId === pending.clientMessageId ? { ...p, failed: problemOf(result.code, result.fields) } : p,
      ),
    });
    // Blocked, or the conversation is gone: what the server has now tells the panel what to show.
    if (result.code === 'FORBIDDEN' || result.code === 'UNAUTHORIZED') void load();
    return;
  }
  update({ conversation: result.data.conversation, ended: false });
  merge([result.data.message]);
  connect();
}

/**
 * Sends a message (the first one starts the conversation, with `email` outside office hours);
 * shown at once, marked if it fails.
 */
export function send(body: string, email?: string) {
  const pending: PendingMessage = { clientMessageId: crypto.randomUUID(), body, failed: null, email };
  update({ pending: [...state().pending, pending], ended: false });
  void deliver(pending);
}

/** Sends a failed message again, under the same id: stored once whatever happened the first time. */
export function retry(clientMessageId: string) {
  const pending = state().pending.find((p) => p.clientMessageId === clientMessageId);
  if (!pending) return;
  const again = { ...pending, failed: null };
  update({ pending: state().pending.map((p) => (p === pending ? again : p)) });
  void deliver(again);
}

export async function saveEmail(email: string): Promise<ChatProblem | null> {
  const result = await callApi<{ conversation: VisitorConversation }>(CHAT_API.email, { email });
  if (!result.ok) return problemOf(result.code, result.fields);
  receive(result.data.conversation);
  return null;
}

export async function end(): Promise<boolean> {
  const result = await callApi(CHAT_API.end, {});
  if (result.ok) forget(true);
  return result.ok;
}

/** While the panel is open and the page visible, what the team wrote counts as seen. */
export function setPanelOpen(open: boolean) {
  if (open && !panelOpen) void loadAvailability();
  panelOpen = open;
  markSeen();
}

function markSeen() {
  const conversation = state().conversation;
  if (!panelOpen || !conversation || document.visibilityState !== 'visible') return;
  const last = state().messages.at(-1)?.id ?? 0;
  if (last <= conversation.visitorReadId || last <= readSent) return;
  readSent = last;
  void callApi<{ conversation: VisitorConversation }>(CHAT_API.read, { upTo: last }).then((result) => {
    if (result.ok) receive(result.data.conversation);
  });
}
