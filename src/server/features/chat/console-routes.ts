import { randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import {
  CHAT_EVENTS,
  CONSOLE_CHAT_API,
  type ConsoleListAnswer,
  type ConsolePresenceEvent,
  type ConsoleThreadAnswer,
  type OperatorPresence,
} from '#common/chat-api.ts';
import { ChatListViewSchema } from '#common/chat-desk-schemas.ts';
import { BlockSchema, ConversationListQuerySchema, OperatorMessageSchema, ReadSchema } from '#common/chat-schemas.ts';
import { NoFieldsSchema } from '#common/fields.ts';
import { readSession, requireStaff, type StaffSession } from '#server/features/accounts/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import type { AppEnv } from '#server/http/context.ts';
import { fieldErrors, jsonBody } from '#server/http/json-body.ts';
import { type ChatDeps, HISTORY_LIMIT, STREAM_BATCH } from './chat-deps.ts';
import { scheduleReplyMail } from './chat-jobs.ts';
import { CHAT_LIMITS, chatHit } from './chat-limits.ts';
import {
  addPresence,
  chatCursor,
  chatWrite,
  consoleChangesAfter,
  consoleThread,
  conversationSummary,
  findConversation,
  findMessageByClientId,
  insertChatMessage,
  listConversations,
  noticeConversation,
  noticePresence,
  operatorsOnline,
  removePresence,
  setBlocked,
  setConversationStatus,
  touchConversation,
} from './chat-queries.ts';
import { requestedCursor, type StreamBatch, type StreamEvent, serveEventStream } from './event-stream.ts';
import { replyMailTexts } from './reply-mail.ts';
import { resumeLink } from './resume-link.ts';
import { staffSessionActive } from './stream-access.ts';
import { markSeen } from './visitor-routes.ts';

/** Every console chat path starts with it; the operator check covers them all. */
const CONSOLE_CHAT_PREFIX = '/api/console/chat';

/** Conversations the list shows at most; older ones are reached by the closed list or retention. */
const LIST_LIMIT = 100;

/** The `:id` of a console path: a positive integer, else the conversation does not exist. */
function conversationId(c: Context): number {
  const raw = c.req.param('id') ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw new ApiError(404, 'NOT_FOUND');
  return Number(raw);
}

/** The mail's link opens this conversation in whichever browser the visitor reads it in. */
const withResumeLink = (deps: ChatDeps, id: number, texts: ReturnType<typeof replyMailTexts>) => ({
  ...texts,
  url: resumeLink(deps, id, texts.language),
});

/**
 * The operators' side, mounted by the console: every conversation live with unread counts and the
 * visitor's language and page; reply, mark read, close, block; who of the team is online. Only
 * operators and admins get through (see accounts/roles.ts).
 */
export function consoleChatRoutes(deps: ChatDeps) {
  const { db, limiter, hub } = deps;
  const app = new Hono<{ Variables: AppEnv['Variables'] & { staff: StaffSession } }>();
  app.use(`${CONSOLE_CHAT_PREFIX}/*`, requireStaff(deps));

  const existing = async (id: number) => {
    const row = await findConversation(db, id);
    if (!row) throw new ApiError(404, 'NOT_FOUND');
    return row;
  };
  const summary = async (id: number) => {
    const row = await conversationSummary(db, id);
    if (!row) throw new ApiError(404, 'NOT_FOUND');
    return row;
  };

  app.get(CONSOLE_CHAT_API.conversations, async (c) => {
    const query = ConversationListQuerySchema.safeParse(c.req.query());
    if (!query.success) {
      throw new ApiError(400, 'VALIDATION_ERROR', { fields: fieldErrors(query.error.issues) });
    }
    const view = ChatListViewSchema.safeParse({ view: c.req.query('view') });
    if (!view.success) throw new ApiError(400, 'VALIDATION_ERROR', { fields: fieldErrors(view.error.issues) });
    const cursor = await chatCursor(db);
    const conversations = await listConversations(db, query.data.status, LIST_LIMIT, {
      kind: view.data.view,
      me: c.get('staff').accountId,
    });
    const answer: ConsoleListAnswer = {
      conversations,
      operators: await operatorsOnline(db),
      cursor,
    };
    return c.json(answer);
  });

  app.get(CONSOLE_CHAT_API.conversation(':id'), async (c) => {
    const id = conversationId(c);
    const cursor = await chatCursor(db);
    const conversation = await summary(id);
    const answer: ConsoleThreadAnswer = { conversation, messages: await consoleThread(db, id, HISTORY_LIMIT), cursor };
    return c.json(answer);
  });

  app.post(CONSOLE_CHAT_API.reply(':id'), jsonBody(OperatorMessageSchema), async (c) => {
    const id = conversationId(c);
    const input = c.req.valid('json');
    const operator = c.get('staff');
    const row = await existing(id);
    const known = await findMessageByClientId(db, id, input.clientMessageId);
    if (!known) await limiter.enforce([chatHit('operatorMessages', operator.accountId)]);
    const stored =
      known ??
      (await chatWrite(db, async (tx) => {
        const message = await insertChatMessage(tx, {
          conversationId: id,
          author: 'operator',
          operatorId: operator.accountId,
          body: input.body,
          clientMessageId: input.clientMessageId,
        });
        if (!message) return null;
        await touchConversation(tx, id, { message: true, reopen: true });
        await noticeConversation(tx, id);
        await scheduleReplyMail(tx, {
          conversationId: id,
          messageId: message.id,
          delaySeconds: deps.settings.chatReplyMailDelaySeconds,
          texts: withResumeLink(deps, id, replyMailTexts(deps.site, deps.texts, row.language)),
        });
        return message;
      })) ??
      (await findMessageByClientId(db, id, input.clientMessageId));
    if (!stored) throw new Error('Chat reply neither stored nor found');
    return c.json(
      { message: { ...stored, conversationId: id, operatorName: operator.name }, conversation: await summary(id) },
      known ? 200 : 201,
    );
  });

  app.post(CONSOLE_CHAT_API.read(':id'), jsonBody(ReadSchema), async (c) => {
    const id = conversationId(c);
    await existing(id);
    await markSeen(deps, { id }, 'operator', c.req.valid('json').upTo);
    return c.json({ conversation: await summary(id) });
  });

  app.post(CONSOLE_CHAT_API.close(':id'), jsonBody(NoFieldsSchema), async (c) => {
    const id = conversationId(c);
    await existing(id);
    await chatWrite(db, async (tx) => {
      await setConversationStatus(tx, id, 'closed');
      await touchConversation(tx, id);
      await noticeConversation(tx, id);
    });
    return c.json({ conversation: await summary(id) });
  });

  app.post(CONSOLE_CHAT_API.block(':id'), jsonBody(BlockSchema), async (c) => {
    const id = conversationId(c);
    const row = await existing(id);
    await chatWrite(db, async (tx) => {
      await setBlocked(tx, row, c.req.valid('json').blocked);
      await touchConversation(tx, id);
      await noticeConversation(tx, id);
    });
    return c.json({ conversation: await summary(id) });
  });

  app.get(CONSOLE_CHAT_API.stream, limiter.perClient('chat:streams', CHAT_LIMITS.streamsPerClient), async (c) => {
    const operator = c.get('staff');
    // The guard let the session in; the stream keeps its token hash to ask again while it is open.
    const session = await readSession(c, db, deps.settings.sessionIdleSeconds);
    if (session.kind !== 'active') throw new ApiError(401, 'UNAUTHORIZED');
    const streamId = randomUUID();
    await addPresence(db, streamId, operator.accountId);
    await noticePresence(db);
    let sent = '';
    const presence = (operators: OperatorPresence[]): StreamEvent | null => {
      const data = JSON.stringify({ operators } satisfies ConsolePresenceEvent);
      if (data === sent) return null;
      sent = data;
      return { event: CHAT_EVENTS.presence, data };
    };
    const read = async (cursor: number): Promise<StreamBatch> => {
      const { messages, conversations } = await consoleChangesAfter(db, cursor, STREAM_BATCH + 1);
      // Each query stops at the batch size; send only what lies before where either stopped.
      const limits = [messages, conversations]
        .filter((rows) => rows.length > STREAM_BATCH)
        .map((rows) => {
          const last = rows[STREAM_BATCH - 1];
          return last && 'seq' in last ? last.seq : (last?.id ?? cursor);
        });
      const boundary = limits.length > 0 ? Math.min(...limits) : Number.POSITIVE_INFINITY;
      const events: (StreamEvent & { id: number })[] = [
        ...messages
          .filter((message) => message.id <= boundary)
          .map((message) => ({ event: CHAT_EVENTS.message, id: message.id, data: JSON.stringify(message) })),
        ...conversations
          .filter((conversation) => conversation.seq <= boundary)
          .map((conversation) => ({
            event: CHAT_EVENTS.conversation,
            id: conversation.seq,
            data: JSON.stringify(conversation),
          })),
      ].sort((a, b) => a.id - b.id);
      const next = Number.isFinite(boundary) ? boundary : Math.max(cursor, ...events.map((event) => event.id));
      return { events, cursor: next, more: limits.length > 0 };
    };
    return serveEventStream({
      // A console opened without a position starts now: it read the list itself.
      cursor: requestedCursor(c) ?? (await chatCursor(db)),
      read,
      presence,
      operators: await operatorsOnline(db),
      register: (sink) => hub.addConsoleStream(streamId, sink, operator.accountId),
      allowed: () => staffSessionActive(deps, session.tokenHash),
      ...deps.streams,
      // One transaction, begun as the stream ends: a database closing on shutdown lets it finish,
      // where a second statement would find the pool ended.
      onClose: () =>
        db.transaction(async (tx) => {
          await removePresence(tx, streamId);
          await noticePresence(tx);
        }),
    });
  });

  return app;
}
