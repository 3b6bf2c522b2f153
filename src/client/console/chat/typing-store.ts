import { callApi } from '#client/lib/api-client.ts';
import { createStore } from '#client/lib/create-store.ts';
import type { ConsoleMessage } from '#common/chat-api.ts';
import { CHAT_HOURS_API, TYPING_SEND_EVERY_MS, TYPING_SHOWN_MS } from '#common/chat-hours.ts';

/** Conversations whose visitor is typing now; kept apart from the list, as nothing of it is stored. */
const store = createStore<{ typing: number[] }>({ typing: [] });
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export const useVisitorTyping = (conversationId: number) => store.use().typing.includes(conversationId);

function show(conversationId: number, typing: boolean) {
  clearTimeout(timers.get(conversationId));
  timers.delete(conversationId);
  const others = store.get().typing.filter((id) => id !== conversationId);
  if (typing)
    timers.set(
      conversationId,
      setTimeout(() => show(conversationId, false), TYPING_SHOWN_MS),
    );
  const next = typing ? [...others, conversationId] : others;
  if (next.length !== store.get().typing.length) store.update({ typing: next });
}

export const heardTyping = (conversationId: number) => show(conversationId, true);

/** The visitor's message is here: what they were typing has arrived. */
export function messageArrived(message: ConsoleMessage) {
  if (message.author === 'visitor') show(message.conversationId, false);
}

let sentFor = 0;
let sentAt = 0;

/** The operator types a reply: the visitor is told, at most every few seconds. */
export function operatorTyping(conversationId: number) {
  const now = Date.now();
  if (sentFor === conversationId && now - sentAt < TYPING_SEND_EVERY_MS) return;
  sentFor = conversationId;
  sentAt = now;
  void callApi(CHAT_HOURS_API.operatorTyping(conversationId), {});
}
