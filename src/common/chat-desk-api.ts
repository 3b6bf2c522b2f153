/**
 * What a team needs to run its support on the chat: saved replies, search, assignment and notes,
 * ratings, transcripts and first-reply times. Paths and answers for the server, the console, the
 * widget and the tests; the request schemas are in chat-desk-schemas.ts.
 */
import type { Language } from './languages.ts';

export const CHAT_DESK_API = {
  /** GET: every saved reply (operators); POST: a new one (admins). */
  savedReplies: '/api/console/chat/saved-replies',
  /** POST: change a saved reply (admins). */
  savedReply: (id: number | string) => `/api/console/chat/saved-replies/${id}`,
  /** POST: remove a saved reply (admins). */
  deleteSavedReply: (id: number | string) => `/api/console/chat/saved-replies/${id}/delete`,
  /** POST `{ assignee }`: an operator's id, or null for nobody. */
  assign: (id: number | string) => `/api/console/chat/conversations/${id}/assign`,
  /** POST: an internal note in the thread, which the visitor never sees. */
  note: (id: number | string) => `/api/console/chat/conversations/${id}/notes`,
  /** GET: the staff a conversation can be handed to. */
  team: '/api/console/chat/team',
  /** GET `?q=`: chats and contact messages that match words, an address or a visitor's name. */
  search: '/api/console/search',
  /** GET `?weeks=`: ratings and first-reply times per week. */
  quality: '/api/console/chat/quality',
} as const;

/** What the visitor's widget calls once the team closed the conversation. */
export const CHAT_ENDING_API = {
  /** POST `{ score, comment }`: the visitor's rating, 1 to 5. */
  rating: '/api/chat/rating',
  /** POST `{ email? }`: mail the conversation to the visitor. */
  transcript: '/api/chat/transcript',
  /** GET `?c=&e=&s=`: the signed link of a mail; opens the conversation in this browser. */
  resume: '/api/chat/resume',
} as const;

/** Which conversations the console's list shows besides their status. */
export const CHAT_VIEWS = ['all', 'mine', 'unassigned'] as const;
export type ChatView = (typeof CHAT_VIEWS)[number];

export const SAVED_REPLY_SHORTCUT = /^[\p{L}\p{N}_-]{1,32}$/u;

export interface SavedReply {
  id: number;
  shortcut: string;
  /** A text per language; at least one. `{{name}}` stands for the visitor's name. */
  texts: Partial<Record<Language, string>>;
}

export interface SavedRepliesAnswer {
  savedReplies: SavedReply[];
}

export interface TeamMember {
  id: string;
  name: string;
}

export interface TeamAnswer {
  team: TeamMember[];
}

export interface ChatSearchHit {
  conversationId: number;
  messageId: number;
  language: string;
  /** The visitor's name or address, when known. */
  visitor: string | null;
  author: string;
  excerpt: string;
  createdAt: string;
}

export interface ContactSearchHit {
  id: string;
  language: string;
  name: string;
  email: string;
  subject: string;
  excerpt: string;
  createdAt: string;
}

export interface SearchAnswer {
  chats: ChatSearchHit[];
  contact: ContactSearchHit[];
}

export interface QualityWeek {
  /** Monday of the week, YYYY-MM-DD (UTC). */
  week: string;
  ratings: number;
  /** Average score, null without ratings. */
  averageScore: number | null;
  /** Conversations with a first reply that week, and the median wait for it in seconds. */
  firstReplies: number;
  medianFirstReplySeconds: number | null;
}

export interface QualityAnswer {
  weeks: QualityWeek[];
  /** The latest comments, newest first. */
  comments: { score: number; comment: string; createdAt: string }[];
}

/** The visitor's rating as the widget shows it back. */
export interface RatingAnswer {
  rating: { score: number; comment: string | null };
}

export const RATING_COMMENT_MAX_LENGTH = 1000;
/** How long a mailed link opens the conversation. */
export const RESUME_LINK_DAYS = 14;
