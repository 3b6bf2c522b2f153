import type { Language } from './languages.ts';
import type { MailDelivery } from './mail-delivery.ts';

/**
 * The console's inbox of contact messages (the contact feature's inbox-routes.ts on the server):
 * paths and answers for the server, the console and the tests. Every path answers only a signed-in
 * operator or admin; the request schemas are in inbox-schemas.ts.
 */
export const INBOX_API = {
  /** GET: a page of messages, newest first (MessagesQuerySchema). */
  messages: '/api/console/messages',
  /** GET: one message with its replies and what the team did with it. */
  message: '/api/console/messages/:id',
  status: '/api/console/messages/:id/status',
  reply: '/api/console/messages/:id/reply',
  remove: '/api/console/messages/:id/delete',
} as const;

/** The message statuses; `answered` is set by a reply, the others by hand. */
export const MESSAGE_STATUSES = ['new', 'read', 'answered', 'archived', 'spam'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
/** What the inbox shows by default: everything but archived messages and spam. */
export const INBOX_STATUSES: readonly MessageStatus[] = ['new', 'read', 'answered'];
/** The statuses a staff member may set. */
export const SETTABLE_STATUSES = ['new', 'read', 'archived', 'spam'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

/** What a staff action on a message is recorded as. */
export const MESSAGE_ACTIONS = [
  'read',
  'unread',
  'archived',
  'restored',
  'spam',
  'not-spam',
  'replied',
  'deleted',
] as const;
export type MessageAction = (typeof MESSAGE_ACTIONS)[number];

export interface MessageSummary {
  id: string;
  createdAt: string;
  name: string;
  email: string;
  subject: string;
  language: Language;
  status: MessageStatus;
  /** The first characters of the message. */
  preview: string;
  replies: number;
}

export interface MessagesAnswer {
  messages: MessageSummary[];
  /** Pass as `before` for the next (older) page; null on the last. */
  next: string | null;
  /** Messages per status, over all time, for the filter's labels. */
  counts: Record<MessageStatus, number>;
}

export interface MessageDetail {
  message: MessageSummary & {
    body: string;
    page: string | null;
    spamReason: string | null;
    /** Whether it belongs to an account (and goes when the account does). */
    fromAccount: boolean;
  };
  replies: {
    id: string;
    body: string;
    createdAt: string;
    author: string | null;
    delivery: MailDelivery;
    sentAt: string | null;
  }[];
  events: { action: MessageAction; actor: string | null; createdAt: string }[];
}
