/**
 * The support chat's endpoints, answers and event names, named once for the server, the widget, the
 * operators' console and the tests. Schemas are in chat-schemas.ts, which the browser does not need.
 */

/** What a visitor's browser calls. Nothing is called before the visitor's first message. */
export const CHAT_API = {
  /** GET: the visitor's conversation with its messages, or `conversation: null`. */
  conversation: '/api/chat/conversation',
  /** POST: a message; the first one starts the conversation and sets its cookie. */
  messages: '/api/chat/messages',
  /** GET: server-sent events of the visitor's conversation (see CHAT_EVENTS). */
  stream: '/api/chat/stream',
  /** POST: the address replies go to when nobody answered live. */
  email: '/api/chat/email',
  /** POST: the visitor has seen the messages up to `upTo`. */
  read: '/api/chat/read',
  /** POST: the visitor ends the conversation; this browser forgets it. */
  end: '/api/chat/end',
} as const;

/** What the operators' console calls; only operators and admins get answers. */
export const CONSOLE_CHAT_API = {
  /** GET `?status=open|closed`: conversations, newest activity first, with the operators online. */
  conversations: '/api/console/chat/conversations',
  /** GET: one conversation with its messages. */
  conversation: (id: number | string) => `/api/console/chat/conversations/${id}`,
  /** POST: an operator's reply. */
  reply: (id: number | string) => `/api/console/chat/conversations/${id}/messages`,
  /** POST `{ upTo }`: the team has read up to that message. */
  read: (id: number | string) => `/api/console/chat/conversations/${id}/read`,
  /** POST: the conversation is done; the visitor's next message opens it again. */
  close: (id: number | string) => `/api/console/chat/conversations/${id}/close`,
  /** POST `{ blocked }`: the visitor may not write any more (or may again). */
  block: (id: number | string) => `/api/console/chat/conversations/${id}/block`,
  /** GET: server-sent events of every conversation and of presence (see CHAT_EVENTS). */
  stream: '/api/console/chat/stream',
} as const;

/** Longest message, in characters as a reader counts them. */
export const CHAT_MESSAGE_MAX_LENGTH = 2000;
/** A client message id: the browser's random id for a message, so that a retry is stored once. */
export const CLIENT_MESSAGE_ID = /^[A-Za-z0-9_-]{16,64}$/;
export const PAGE_MAX_LENGTH = 300;

/**
 * Event names on both streams. Every `message` and `conversation` event carries an `id`: the
 * position in the chat's one sequence. A browser that reconnects sends the last one it saw
 * (`Last-Event-ID`, or `?after=`) and gets exactly what it missed. `presence` has no id: it is
 * state, sent again on every connection.
 */
export const CHAT_EVENTS = {
  message: 'message',
  conversation: 'conversation',
  presence: 'presence',
  /** Sent once per connection when what was missed has been sent; its id is where the stream stands. */
  ready: 'ready',
} as const;

/** A `note` is the team's own, in the thread, never shown to the visitor. */
export type ChatAuthor = 'visitor' | 'operator' | 'system' | 'note';

export interface ChatMessage {
  id: number;
  author: ChatAuthor;
  body: string;
  clientMessageId: string;
  createdAt: string;
}

/** The conversation as its visitor sees it. */
export interface VisitorConversation {
  status: 'open' | 'closed';
  /** The visitor ended it (maybe in another tab): this browser no longer has a conversation. */
  ended: boolean;
  /** The team stopped this visitor from writing. */
  blocked: boolean;
  /** Whether any operator has the console open now; when none is, replies may come by mail. */
  operatorsOnline: boolean;
  /** Where replies go when the visitor has left: the address they gave, or their account's. */
  email: string | null;
  /** Tied to the signed-in visitor's account: replies go to its address without asking. */
  accountBound: boolean;
  /** The last message the team has read, and the last the visitor has seen. */
  operatorReadId: number;
  visitorReadId: number;
}

export interface VisitorChatAnswer {
  conversation: VisitorConversation | null;
  messages: ChatMessage[];
  /** Where a stream opened next starts (`?after=`). */
  cursor: number;
}

export interface SendAnswer {
  message: ChatMessage;
  conversation: VisitorConversation;
}

/** A conversation in the console's list. */
export interface ConsoleConversation {
  id: number;
  /**
   * Position of its last change in the chat's one sequence: of two copies of a conversation (an
   * answer and a stream event may cross), the one with the higher seq is the newer.
   */
  seq: number;
  status: 'open' | 'closed';
  language: string;
  /** The page the visitor last wrote from. */
  page: string;
  createdAt: string;
  lastMessageAt: string;
  lastMessage: { author: ChatAuthor; excerpt: string } | null;
  /** Visitor messages after the team's read marker. */
  unread: number;
  visitorEmail: string | null;
  /** The visitor's account, when they were signed in. */
  account: { name: string; email: string } | null;
  blocked: boolean;
  /** The visitor ended it and no longer sees it; a reply can still go by mail. */
  visitorEnded: boolean;
  operatorReadId: number;
  visitorReadId: number;
  /** Who of the team looks after it; null for nobody yet. */
  assignee: { id: string; name: string } | null;
}

export interface ConsoleMessage extends ChatMessage {
  conversationId: number;
  /** Who of the team wrote it. */
  operatorName: string | null;
}

export interface OperatorPresence {
  id: string;
  name: string;
}

export interface ConsoleListAnswer {
  conversations: ConsoleConversation[];
  operators: OperatorPresence[];
  cursor: number;
}

export interface ConsoleThreadAnswer {
  conversation: ConsoleConversation;
  messages: ConsoleMessage[];
  cursor: number;
}

/** The visitor stream's `presence` event. */
export interface VisitorPresenceEvent {
  operatorsOnline: boolean;
}

/** The console stream's `presence` event. */
export interface ConsolePresenceEvent {
  operators: OperatorPresence[];
}
