import type { Deps } from '#server/deps.ts';
import { newRoutes } from '#server/http/context.ts';
import type { Feature } from '#server/http/feature.ts';
import type { ChatDeps } from './chat-deps.ts';
import { chatHoursRoutes } from './chat-hours-routes.ts';
import { ChatHub } from './chat-hub.ts';
import { chatJobs as replyJobs } from './chat-jobs.ts';
import { consoleChatRoutes } from './console-routes.ts';
import { chatDeskRoutes } from './desk-routes.ts';
import { chatEndingRoutes } from './ending-routes.ts';
import { visitorChatRoutes } from './visitor-routes.ts';
import { waitingAlertJobs } from './waiting-alert.ts';

export const chatJobs = { ...replyJobs, ...waitingAlertJobs };

/** Under nginx's 60 s (and most NATs'), so an idle stream is never taken for a dead one. */
const HEARTBEAT_MS = 25_000;
/** Zulip's queue lifetime: a stream is renewed by the browser, which also frees what it held. */
const STREAM_LIFETIME_MS = 10 * 60_000;

/**
 * The support chat: the visitors' widget API and the operators' console API, with live event
 * streams fed through the database, so every instance delivers every message.
 */
export function chatFeature(deps: Deps): Feature {
  const streams = deps.settings.chatStreams ?? { heartbeatMs: HEARTBEAT_MS, lifetimeMs: STREAM_LIFETIME_MS };
  const hub = new ChatHub(deps.db, streams);
  deps.metrics.watchStreams(() => hub.size);
  const chatDeps: ChatDeps = { ...deps, hub, streams };
  const routes = newRoutes()
    .route('/', visitorChatRoutes(chatDeps))
    .route('/', consoleChatRoutes(chatDeps))
    .route('/', chatHoursRoutes(chatDeps))
    .route('/', chatDeskRoutes(chatDeps))
    .route('/', chatEndingRoutes(chatDeps));
  return { routes };
}
export { chatConversationsPer } from './chat-counts.ts';
export { readChatSettings } from './chat-settings-queries.ts';
export { instantOf, wallClock } from './office-hours.ts';
