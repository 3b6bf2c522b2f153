import { callApi } from '#client/lib/api-client.ts';
import { createStore } from '#client/lib/create-store.ts';
import { type FollowedStream, followStream } from '#client/lib/event-stream.ts';
import {
  CHAT_EVENTS,
  CONSOLE_CHAT_API,
  type ConsoleConversation,
  type ConsoleListAnswer,
  type ConsoleMessage,
} from '#common/chat-api.ts';
import { CHAT_HOURS_API, type OperatorAlerts } from '#common/chat-hours.ts';
import { playChime, prepareChime } from './chime.ts';
import { clearWaiting, showWaiting } from './waiting-badge.ts';

export type NotificationState = 'unsupported' | 'default' | 'granted' | 'denied';

export interface AlertsState {
  /** The operator's own choice, kept on the server. */
  sound: boolean;
  notifications: NotificationState;
}

const store = createStore<AlertsState>({ sound: false, notifications: 'unsupported' });
const { get: state, update } = store;
export const useAlerts = store.use;

/** What a desktop notification says, in the console's language (ChatAlerts gives it). */
export type Describe = (
  conversation: ConsoleConversation | undefined,
  message: ConsoleMessage,
) => {
  title: string;
  body: string;
};

/** Open conversations by id, as the alerts last heard of them. */
const conversations = new Map<number, ConsoleConversation>();
let stream: FollowedStream | null = null;
let describe: Describe = () => ({ title: '', body: '' });

/** A conversation waits while it is open and its last word is the visitor's. */
const waits = (c: ConsoleConversation) =>
  c.status === 'open' && !c.blocked && !c.visitorEnded && c.lastMessage?.author === 'visitor';

function recount() {
  let waiting = 0;
  for (const conversation of conversations.values()) if (waits(conversation)) waiting++;
  showWaiting(waiting);
}

function heard(conversation: ConsoleConversation) {
  const held = conversations.get(conversation.id);
  if (held && held.seq > conversation.seq) return;
  if (conversation.status === 'open') conversations.set(conversation.id, conversation);
  else conversations.delete(conversation.id);
  recount();
}

/** A visitor wrote: while the tab is hidden, a desktop notification and, if chosen, a chime. */
function arrived(message: ConsoleMessage) {
  if (message.author !== 'visitor' || document.visibilityState !== 'hidden') return;
  if (state().sound) playChime();
  if (state().notifications !== 'granted') return;
  const { title, body } = describe(conversations.get(message.conversationId), message);
  const notification = new Notification(title, { body, tag: `chat-${message.conversationId}` });
  notification.onclick = () => {
    window.focus();
    notification.close();
  };
}

const permission = (): NotificationState =>
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;

/**
 * Starts once the console is open, on whatever page: reads the open conversations and the
 * operator's choices, then follows the console's stream for the count and the alerts.
 */
export async function startAlerts(describeMessage: Describe): Promise<void> {
  describe = describeMessage;
  if (stream) return;
  update({ notifications: permission() });
  // Sound may play only after a click on the page: any click in the console prepares it.
  document.addEventListener('pointerdown', () => state().sound && prepareChime(), { capture: true });
  const [list, mine] = await Promise.all([
    callApi<ConsoleListAnswer>(`${CONSOLE_CHAT_API.conversations}?status=open`),
    callApi<OperatorAlerts>(CHAT_HOURS_API.myAlerts),
  ]);
  if (mine.ok) update({ sound: mine.data.sound });
  if (!list.ok || stream) return;
  for (const conversation of list.data.conversations) conversations.set(conversation.id, conversation);
  recount();
  stream = followStream(CONSOLE_CHAT_API.stream, list.data.cursor, {
    events: { [CHAT_EVENTS.conversation]: heard, [CHAT_EVENTS.message]: arrived },
    onRefused: async () => (await callApi(CONSOLE_CHAT_API.conversations)).ok,
  });
}

export function stopAlerts() {
  stream?.close();
  stream = null;
  conversations.clear();
  clearWaiting();
}

/** The operator turns the chime on or off (a click: the sound can be prepared now). */
export async function setSound(sound: boolean): Promise<boolean> {
  if (sound) prepareChime();
  const result = await callApi<OperatorAlerts>(CHAT_HOURS_API.myAlerts, { sound });
  if (result.ok) update({ sound: result.data.sound });
  return result.ok;
}

/** Asks the browser for permission to notify: only ever from the operator's click, never on load. */
export async function askNotifications(): Promise<void> {
  if (typeof Notification === 'undefined') return;
  update({ notifications: await Notification.requestPermission() });
}
