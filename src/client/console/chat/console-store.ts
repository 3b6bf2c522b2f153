import { callApi } from '#client/lib/api-client.ts';
import { createStore } from '#client/lib/create-store.ts';
import { type FollowedStream, followStream, type StreamState } from '#client/lib/event-stream.ts';
import { mergedById } from '#client/lib/merged-by-id.ts';
import {
  CHAT_EVENTS,
  CONSOLE_CHAT_API,
  type ConsoleConversation,
  type ConsoleListAnswer,
  type ConsoleMessage,
  type ConsolePresenceEvent,
  type ConsoleThreadAnswer,
  type OperatorPresence,
} from '#common/chat-api.ts';
import { CHAT_DESK_API } from '#common/chat-desk-api.ts';
import { type ConsoleTypingEvent, TYPING_EVENT } from '#common/chat-hours.ts';
import { heardTyping, messageArrived } from './typing-store.ts';

export type ListStatus = 'open' | 'closed';

export interface PendingReply {
  clientMessageId: string;
  body: string;
  failed: boolean;
  /** An internal note, for the team only. */
  note?: boolean;
}

export interface ConsoleState {
  loaded: boolean;
  status: ListStatus;
  conversations: ConsoleConversation[];
  operators: OperatorPresence[];
  selected: number | null;
  thread: { conversation: ConsoleConversation; messages: ConsoleMessage[] } | null;
  pending: PendingReply[];
  connection: StreamState | 'off';
  /** The last action on the selected conversation failed. */
  failed: boolean;
}

/** What the chat screen shows; changed only by the functions of this module. */
const store = createStore<ConsoleState>({
  loaded: false,
  status: 'open',
  conversations: [],
  operators: [],
  selected: null,
  thread: null,
  pending: [],
  connection: 'off',
  failed: false,
});
const { get: state, update } = store;
let stream: FollowedStream | null = null;
let readSent = new Map<number, number>();
/** Messages of the selected conversation that the stream brought while its thread was on its way. */
let arrivedEarly: ConsoleMessage[] = [];

/** What the chat screen shows, read outside React. */
export const currentConsoleChat = state;

export const useConsoleChat = store.use;

const byActivity = (a: ConsoleConversation, b: ConsoleConversation) => b.lastMessageAt.localeCompare(a.lastMessageAt);

/** The copy of a conversation the console holds, in the list or the open thread. */
function heldCopy(id: number): ConsoleConversation | undefined {
  const { conversations, thread } = state();
  return conversations.find((c) => c.id === id) ?? (thread?.conversation.id === id ? thread.conversation : undefined);
}

/** The later of the held copy and `copy`: an answer can arrive after a stream event about a newer change. */
function latest(copy: ConsoleConversation): ConsoleConversation {
  const held = heldCopy(copy.id);
  return held && held.seq > copy.seq ? held : copy;
}

/** Puts a conversation in the list when it has the list's status, takes it out otherwise; an outdated copy changes nothing. */
function upsert(conversation: ConsoleConversation) {
  if (latest(conversation) !== conversation) return;
  const { conversations: held, status, thread: shown } = state();
  const others = held.filter((c) => c.id !== conversation.id);
  const conversations = conversation.status === status ? [...others, conversation].sort(byActivity) : others;
  const thread = shown?.conversation.id === conversation.id ? { ...shown, conversation } : shown;
  update({ conversations, thread });
}

function addMessage(message: ConsoleMessage) {
  messageArrived(message);
  const thread = state().thread;
  if (!thread || thread.conversation.id !== message.conversationId) {
    if (state().selected === message.conversationId) arrivedEarly.push(message);
    return;
  }
  if (thread.messages.some((m) => m.id === message.id)) return;
  const messages = mergedById(thread.messages, [message]);
  update({
    thread: { ...thread, messages },
    pending: state().pending.filter((p) => p.clientMessageId !== message.clientMessageId),
  });
  markRead();
}

function follow(cursor: number) {
  stream?.close();
  stream = followStream(CONSOLE_CHAT_API.stream, cursor, {
    events: {
      [CHAT_EVENTS.message]: addMessage,
      [CHAT_EVENTS.conversation]: upsert,
      [CHAT_EVENTS.presence]: ({ operators }: ConsolePresenceEvent) => update({ operators }),
      [TYPING_EVENT]: ({ conversationId }: ConsoleTypingEvent) => heardTyping(conversationId),
    },
    onState: (connection) => update({ connection }),
    // Refused: signed out, or no longer an operator. Nothing to follow then.
    onRefused: async () => (await callApi(CONSOLE_CHAT_API.conversations)).ok,
  });
}

/** Reads the list of one status and follows every change from there. */
export async function showList(status: ListStatus): Promise<void> {
  update({ status });
  const result = await callApi<ConsoleListAnswer>(`${CONSOLE_CHAT_API.conversations}?status=${status}`);
  if (!result.ok) return update({ loaded: true, failed: true });
  update({
    loaded: true,
    conversations: [...result.data.conversations].sort(byActivity),
    operators: result.data.operators,
  });
  // The stream starts where the list was read, so nothing between the two is lost.
  if (!stream) follow(result.data.cursor);
}

export async function select(id: number): Promise<void> {
  arrivedEarly = [];
  update({ selected: id, failed: false });
  const result = await callApi<ConsoleThreadAnswer>(CONSOLE_CHAT_API.conversation(id));
  if (state().selected !== id) return;
  if (!result.ok) return update({ thread: null, failed: true });
  // The list may have heard of a later change while the thread was on its way, and the stream of
  // messages the answer was read too early to hold (into the thread shown, when reloading it).
  const { thread } = state();
  const shown = thread?.conversation.id === id ? thread.messages : [];
  const messages = mergedById(result.data.messages, [...shown, ...arrivedEarly]);
  arrivedEarly = [];
  update({ thread: { conversation: latest(result.data.conversation), messages } });
  markRead();
}

/** Back to the console tab: what came meanwhile in the open conversation is read now. */
export function revisit() {
  const { selected } = state();
  if (document.visibilityState === 'visible' && selected !== null) void select(selected);
}

/** What the operator looks at counts as read for the whole team. */
function markRead() {
  const thread = state().thread;
  if (!thread || document.visibilityState !== 'visible') return;
  const last = thread.messages.at(-1)?.id ?? 0;
  const id = thread.conversation.id;
  if (last <= thread.conversation.operatorReadId || last <= (readSent.get(id) ?? 0)) return;
  readSent.set(id, last);
  void callApi<{ conversation: ConsoleConversation }>(CONSOLE_CHAT_API.read(id), { upTo: last }).then((result) => {
    if (result.ok) upsert(result.data.conversation);
  });
}

async function deliver(id: number, reply: PendingReply) {
  const result = await callApi<{ message: ConsoleMessage; conversation: ConsoleConversation }>(
    reply.note ? CHAT_DESK_API.note(id) : CONSOLE_CHAT_API.reply(id),
    { body: reply.body, clientMessageId: reply.clientMessageId },
  );
  if (!result.ok) {
    update({
      pending: state().pending.map((p) => (p.clientMessageId === reply.clientMessageId ? { ...p, failed: true } : p)),
    });
    return;
  }
  addMessage(result.data.message);
  upsert(result.data.conversation);
}

/** Sends a reply to the visitor, or (`note`) an internal note that only the team sees. */
export function reply(body: string, note = false) {
  const id = state().selected;
  if (id === null) return;
  const pending: PendingReply = {
    clientMessageId: crypto.randomUUID(),
    body,
    failed: false,
    ...(note ? { note } : {}),
  };
  update({ pending: [...state().pending, pending] });
  void deliver(id, pending);
}

export function retryReply(clientMessageId: string) {
  const id = state().selected;
  const pending = state().pending.find((p) => p.clientMessageId === clientMessageId);
  if (id === null || !pending) return;
  const again = { ...pending, failed: false };
  update({ pending: state().pending.map((p) => (p === pending ? again : p)) });
  void deliver(id, again);
}

async function act(path: string, body: unknown) {
  const result = await callApi<{ conversation: ConsoleConversation }>(path, body);
  if (!result.ok) return update({ failed: true });
  update({ failed: false });
  upsert(result.data.conversation);
}

export function closeSelected() {
  const { selected } = state();
  return selected !== null && act(CONSOLE_CHAT_API.close(selected), {});
}

/** Hands the selected conversation to a member of the team, or to nobody. */
export function assignSelected(assignee: string | null) {
  const { selected } = state();
  return selected !== null && act(CHAT_DESK_API.assign(selected), { assignee });
}

export function blockSelected(blocked: boolean) {
  const { selected } = state();
  return selected !== null && act(CONSOLE_CHAT_API.block(selected), { blocked });
}

/** Stops following (the console left the chat screen); the next showList starts afresh. */
export function stop() {
  stream?.close();
  stream = null;
  readSent = new Map();
  arrivedEarly = [];
  store.reset();
}
