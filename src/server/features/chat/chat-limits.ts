import type { Deps } from '#server/deps.ts';
import type { Limit, LimitHit } from '#server/http/rate-limit.ts';

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/**
 * How much a visitor or an operator may do in the chat. Messages per conversation keep one visitor
 * from flooding the team; per client address, they also cover someone starting conversation after
 * conversation. The reasons are in docs/decisions/082-chat-identity-and-limits.md.
 */
export const CHAT_LIMITS = {
  messagesPerConversation: { hits: 10, windowSeconds: MINUTE },
  messagesPerClient: { hits: 30, windowSeconds: MINUTE },
  emailsPerConversation: { hits: 5, windowSeconds: HOUR },
  readsPerClient: { hits: 240, windowSeconds: MINUTE },
  streamsPerClient: { hits: 120, windowSeconds: MINUTE },
  operatorMessages: { hits: 120, windowSeconds: MINUTE },
  /** Ratings and transcripts of one conversation: a transcript is a mail to an address the visitor names. */
  endingsPerConversation: { hits: 5, windowSeconds: HOUR },
} as const satisfies Record<string, Limit>;

export type ChatLimitName = keyof typeof CHAT_LIMITS;

export const chatHit = (name: ChatLimitName, subject: string | number): LimitHit => ({
  name: `chat:${name}`,
  limit: CHAT_LIMITS[name],
  subject: String(subject),
});

/** New conversations per client address: a setting, since many visitors may share an address. */
export const newConversationHit = (deps: Deps, client: string): LimitHit => ({
  name: 'chat:conversationsPerClient',
  limit: { hits: deps.settings.chatConversationsPerClient, windowSeconds: 12 * HOUR },
  subject: client,
});
