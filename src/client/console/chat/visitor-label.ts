import type { ConsoleConversation } from '#common/chat-api.ts';

/**
 * How the console names a visitor: by their account's name when signed in, else by the address
 * they left, and only without either by `fallback` ("Visitor 3").
 */
export const visitorLabel = (conversation: ConsoleConversation, fallback: string) =>
  conversation.account?.name ?? conversation.visitorEmail ?? conversation.account?.email ?? fallback;
