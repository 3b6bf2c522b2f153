import type { Deps } from '#server/deps.ts';
import type { ChatHub } from './chat-hub.ts';

/** What the chat's routes work with: the app's dependencies, this instance's streams and their timing. */
export interface ChatDeps extends Deps {
  hub: ChatHub;
  streams: { heartbeatMs: number; lifetimeMs: number };
}

/** Messages a stream sends per read of the database; a longer backlog goes in several. */
export const STREAM_BATCH = 200;
/** Messages a conversation's first read shows; older ones stay in the database until retention. */
export const HISTORY_LIMIT = 200;
