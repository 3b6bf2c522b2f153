import {
  CHAT_API,
  CHAT_EVENTS,
  type SendAnswer,
  type VisitorChatAnswer,
  type VisitorConversation,
  type VisitorPresenceEvent,
} from '#common/chat-api.ts';
import { ChatEmailSchema, ReadSchema, VisitorMessageSchema } from '#common/chat-schemas.ts';
import { NoFieldsSchema } from '#common/fields.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody } from '#server/http/json-body.ts';
import { type ChatDeps, HISTORY_LIMIT, STREAM_BATCH } from './chat-deps.ts';
import { CHAT_LIMITS, chatHit, newConversationHit } from './chat-limits.ts';
import {
  blockSubjects,
  type ConversationRow,
  chatCursor,
  chatWrite,
  createConversation,
  endByVisitor,
  findConversation,
  findMessageByClientId,
  findRetriedStart,
  insertChatMessage,
  isBlocked,
  lastMessages,
  markRead,
  noticeConversation,
  operatorsOnline,
  replaceToken,
  setVisitorEmail,
  touchConversation,
  visitorChangesAfter,
} from './chat-queries.ts';
import { readChatSettings } from './chat-settings-queries.ts';
import { requestedCursor, type StreamBatch, type StreamEvent, serveEventStream } from './event-stream.ts';
import { hoursAt } from './office-hours.ts';
import { sessionActive } from './stream-access.ts';
import {
  clearChatCookies,
  clientHashOf,
  hashChatToken,
  identifyVisitor,
  newChatToken,
  setChatCookies,
  visitorView,
} from './visitor-identity.ts';
import { scheduleWaitingAlert } from './waiting-alert.ts';

/** Within the team's office hours now, or no office hours set. */
async function withinOfficeHours(db: ChatDeps['db']): Promise<boolean> {
  const settings = await readChatSettings(db);
  return !settings.hoursEnabled || hoursAt(new Date(), settings).open;
}

/** What a stream sends when the conversation is gone (deleted with its account, or by retention). */
const GONE: VisitorConversation = {
  status: 'closed',
  ended: true,
  blocked: false,
  operatorsOnline: false,
  email: null,
  accountBound: false,
  operatorReadId: 0,
  visitorReadId: 0,
};

/**
 * The visitor's side: write (the first message starts the conversation and sets its cookie), read,
 * follow live, give an address for replies, mark as seen, end. Every call works only on the
 * conversation the visitor's cookie (or their signed-in account) names.
 */
export function visitorChatRoutes(deps: ChatDeps) {
  const { db, limiter, hub } = deps;
  const routes = newRoutes();
  // While this instance has streams open, the hub keeps who is online up to date (notices, and a
  // check every heartbeat); otherwise the database is asked.
  const anyoneOnline = async () => (hub.knownOperators ?? (await operatorsOnline(db))).length > 0;

  const ownConversation = async (c: Parameters<typeof identifyVisitor>[0]) => {
    const visitor = await identifyVisitor(c, deps);
    if (!visitor.conversation) throw new ApiError(404, 'NOT_FOUND');
    return { ...visitor, conversation: visitor.conversation };
  };

  const answerFor = async (id: number): Promise<VisitorConversation> => {
    const row = await findConversation(db, id);
    return row ? visitorView(row, await anyoneOnline()) : GONE;
  };

  routes.get(CHAT_API.conversation, limiter.perClient('chat:reads', CHAT_LIMITS.readsPerClient), async (c) => {
    const visitor = await identifyVisitor(c, deps);
    if (!visitor.conversation)
      return c.json({ conversation: null, messages: [], cursor: 0 } satisfies VisitorChatAnswer);
    // The position first: whatever changes after it reaches a stream opened at it.
    const cursor = await chatCursor(db);
    const row = await findConversation(db, visitor.conversation.id);
    if (!row) return c.json({ conversation: null, messages: [], cursor: 0 } satisfies VisitorChatAnswer);
    const messages = await lastMessages(db, row.id, HISTORY_LIMIT);
    return c.json({
      conversation: visitorView(row, await anyoneOnline()),
      messages,
      cursor,
    } satisfies VisitorChatAnswer);
  });

  routes.post(
    CHAT_API.messages,
    limiter.perClient('chat:messagesPerClient', CHAT_LIMITS.messagesPerClient),
    jsonBody(VisitorMessageSchema),
    async (c) => {
      const input = c.req.valid('json');
      const visitor = await identifyVisitor(c, deps);
      const existing = visitor.conversation;

      if (existing) {
        if (existing.blocked) throw new ApiError(403, 'FORBIDDEN');
        const known = await findMessageByClientId(db, existing.id, input.clientMessageId, true);
        if (!known) await limiter.enforce([chatHit('messagesPerConversation', existing.id)]);
        const stored =
          known ??
          (await chatWrite(db, async (tx) => {
            const message = await insertChatMessage(tx, { conversationId: existing.id, author: 'visitor', ...input });
            if (!message) return null;
            if (input.email) await setVisitorEmail(tx, existing.id, input.email);
            await scheduleWaitingAlert(tx, deps, existing.id, message.id);
            await touchConversation(tx, existing.id, {
              message: true,
              reopen: true,
              visitor: { page: input.page, language: input.language, accountId: visitor.accountId },
            });
            await noticeConversation(tx, existing.id);
            return message;
          })) ??
          // The same message, sent twice at once: the other request stored it.
          (await findMessageByClientId(db, existing.id, input.clientMessageId, true));
        if (!stored) throw new Error('Chat message neither stored nor found');
        setChatCookies(c, visitor.token ?? undefined);
        const answer = { message: stored, conversation: await answerFor(existing.id) } satisfies SendAnswer;
        return c.json(answer, known ? 200 : 201);
      }

      // Outside office hours the widget asks where to answer before the first message: nobody
      // will read it live, so a conversation without an address would go unanswered.
      if (!input.email && !visitor.accountId && !(await withinOfficeHours(db))) {
        throw new ApiError(400, 'VALIDATION_ERROR', { fields: { email: 'MISSING_REQUIRED_FIELD' } });
      }
      const clientHash = clientHashOf(deps, c.var.clientAddress);
      if (await isBlocked(db, blockSubjects(clientHash, visitor.accountId))) throw new ApiError(403, 'FORBIDDEN');
      const retry = () => findRetriedStart(db, input.clientMessageId, clientHash, visitor.accountId);
      if (!(await retry())) await limiter.enforce([newConversationHit(deps, c.var.clientAddress)]);
      const token = newChatToken();
      const started = await chatWrite(db, async (tx) => {
        // Under the chat's lock, so that of two identical first messages one starts and one finds it.
        const retried = await findRetriedStart(tx, input.clientMessageId, clientHash, visitor.accountId);
        if (retried) {
          await replaceToken(tx, retried, hashChatToken(token));
          return { id: retried, created: false };
        }
        const id = await createConversation(tx, {
          tokenHash: hashChatToken(token),
          accountId: visitor.accountId,
          clientHash,
          language: input.language,
          page: input.page,
        });
        const first = await insertChatMessage(tx, { conversationId: id, author: 'visitor', ...input });
        if (input.email) await setVisitorEmail(tx, id, input.email);
        if (first) await scheduleWaitingAlert(tx, deps, id, first.id);
        await noticeConversation(tx, id);
        return { id, created: true };
      });
      // The first message counts towards the conversation's limit like the others.
      if (started.created) await limiter.enforce([chatHit('messagesPerConversation', started.id)]);
      setChatCookies(c, token);
      const message = await findMessageByClientId(db, started.id, input.clientMessageId, true);
      if (!message) throw new Error('First chat message not found');
      const answer = { message, conversation: await answerFor(started.id) } satisfies SendAnswer;
      return c.json(answer, started.created ? 201 : 200);
    },
  );

  routes.get(CHAT_API.stream, limiter.perClient('chat:streams', CHAT_LIMITS.streamsPerClient), async (c) => {
    const visitor = await identifyVisitor(c, deps);
    const { conversation, sessionHash } = visitor;
    if (!conversation) throw new ApiError(401, 'UNAUTHORIZED');
    let online = hub.knownOperators ? hub.knownOperators.length > 0 : null;
    const presence = (operators: { id: string }[]): StreamEvent | null => {
      const now = operators.length > 0;
      if (now === online) return null;
      online = now;
      return {
        event: CHAT_EVENTS.presence,
        data: JSON.stringify({ operatorsOnline: now } satisfies VisitorPresenceEvent),
      };
    };
    const read = async (cursor: number): Promise<StreamBatch> => {
      const { messages: fetched, conversation: row } = await visitorChangesAfter(
        db,
        conversation.id,
        cursor,
        STREAM_BATCH + 1,
      );
      const more = fetched.length > STREAM_BATCH;
      const messages = fetched.slice(0, STREAM_BATCH);
      const boundary = more ? (messages.at(-1)?.id ?? cursor) : Number.POSITIVE_INFINITY;
      const events: StreamEvent[] = messages.map((message) => ({
        event: CHAT_EVENTS.message,
        id: message.id,
        data: JSON.stringify(message),
      }));
      let next = messages.at(-1)?.id ?? cursor;
      if (!row) {
        events.push({ event: CHAT_EVENTS.conversation, data: JSON.stringify(GONE) });
        return { events, cursor: next, end: true };
      }
      // Tied to an account since the stream opened without that account's session (its first
      // message after signing in, from another tab): nothing more here; the reconnection decides.
      if (row.accountId !== null && row.accountId !== visitor.accountId) return { events: [], cursor, end: true };
      if (row.seq > cursor && row.seq <= boundary) {
        events.push({
          event: CHAT_EVENTS.conversation,
          id: row.seq,
          data: JSON.stringify(visitorView(row, online ?? false)),
        });
        next = Math.max(next, row.seq);
      }
      events.sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
      return { events, cursor: next, more, end: row.visitorEnded };
    };
    return serveEventStream({
      cursor: requestedCursor(c) ?? 0,
      read,
      presence,
      operators: hub.knownOperators,
      register: (sink) => hub.addVisitorStream(conversation.id, sink, visitor.accountId),
      // Opened with a session: it ends with it (decision 093).
      allowed: sessionHash ? () => sessionActive(deps, sessionHash) : undefined,
      ...deps.streams,
    });
  });

  routes.post(CHAT_API.email, jsonBody(ChatEmailSchema), async (c) => {
    const { conversation } = await ownConversation(c);
    await limiter.enforce([chatHit('emailsPerConversation', conversation.id)]);
    await chatWrite(db, async (tx) => {
      await setVisitorEmail(tx, conversation.id, c.req.valid('json').email);
      await touchConversation(tx, conversation.id);
      await noticeConversation(tx, conversation.id);
    });
    return c.json({ conversation: await answerFor(conversation.id) });
  });

  routes.post(
    CHAT_API.read,
    limiter.perClient('chat:reads', CHAT_LIMITS.readsPerClient),
    jsonBody(ReadSchema),
    async (c) => {
      const { conversation } = await ownConversation(c);
      await markSeen(deps, conversation, 'visitor', c.req.valid('json').upTo);
      return c.json({ conversation: await answerFor(conversation.id) });
    },
  );

  routes.post(CHAT_API.end, jsonBody(NoFieldsSchema), async (c) => {
    const { conversation } = await ownConversation(c);
    await chatWrite(db, async (tx) => {
      await endByVisitor(tx, conversation.id);
      await touchConversation(tx, conversation.id);
      await noticeConversation(tx, conversation.id);
    });
    clearChatCookies(c);
    return c.json({});
  });

  return routes;
}

/** Moves a read marker; the conversation's streams hear of it only when it moved. */
export async function markSeen(
  deps: ChatDeps,
  conversation: Pick<ConversationRow, 'id'>,
  who: 'visitor' | 'operator',
  upTo: number,
): Promise<void> {
  await chatWrite(deps.db, async (tx) => {
    if (!(await markRead(tx, conversation.id, who, upTo))) return;
    await touchConversation(tx, conversation.id);
    await noticeConversation(tx, conversation.id);
  });
}
