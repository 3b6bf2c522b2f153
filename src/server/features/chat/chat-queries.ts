import type {
  ChatAuthor,
  ChatMessage,
  ConsoleConversation,
  ConsoleMessage,
  OperatorPresence,
} from '#common/chat-api.ts';
import { type Database, notifyIn, type Queryable } from '#server/platform/db/database.ts';

/** The channel every instance listens to; payloads name what changed, never its content. */
export const CHAT_CHANNEL = 'chat';
/**
 * Where the database itself says (migration 031) that a session of an account ended or its role
 * changed; the payload is the account's id.
 */
export const ACCESS_CHANNEL = 'access';
/** Any fixed number works as long as nothing else in the database uses it as an advisory lock. */
const CHAT_WRITE_LOCK = 4_711_200_030;
/** An operator is online while one of their console streams was seen this recently. */
export const PRESENCE_FRESH_SECONDS = 60;

/**
 * What a notification on CHAT_CHANNEL says: a conversation changed, who is online did, or someone
 * is typing in a conversation (`w`: the visitor or an operator; see typing.ts).
 */
export type ChatNotice = { c: number } | { p: 1 } | { t: number; w: 'v' | 'o' };

/**
 * Every write to the chat goes through here: one transaction that first takes the chat's advisory
 * lock, so that positions drawn from chat_seq become visible in the order they were drawn. Without
 * it, position 11 could commit before 10, a stream would move past 11, and 10 would never be
 * sent. At chat rates (a few messages a second at most) one writer at a time costs nothing.
 */
export function chatWrite<T>(db: Database, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [CHAT_WRITE_LOCK]);
    return fn(tx);
  });
}

/**
 * What a stream reads at each wake, in one snapshot. The lock above orders the writes; a reader of
 * two statements also needs both to see the same chat: a write committed between them would show
 * the second a position beyond what the first missed, and the stream would move past a message it
 * never sent.
 */
function chatRead<T>(db: Database, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    return fn(tx);
  });
}

/** Tells every instance, at commit, that a conversation changed; their streams read what. */
export const noticeConversation = (tx: Queryable, conversationId: number) =>
  notifyIn(tx, CHAT_CHANNEL, JSON.stringify({ c: conversationId } satisfies ChatNotice));

export const noticePresence = (db: Queryable) =>
  notifyIn(db, CHAT_CHANNEL, JSON.stringify({ p: 1 } satisfies ChatNotice));

/** Where the chat stands: the last position written. A stream opened at it misses nothing later. */
export async function chatCursor(db: Queryable): Promise<number> {
  const [row] = await db.query<{ cursor: number }>(
    `SELECT greatest((SELECT max(id) FROM chat_messages), (SELECT max(seq) FROM chat_conversations), 0)::bigint AS cursor`,
  );
  return Number(row?.cursor ?? 0);
}

/** Internal notes are the team's: every read the visitor's side makes leaves them out. */
export const VISIBLE_TO_VISITOR = `m.author <> 'note'`;

export interface ConversationRow {
  id: number;
  seq: number;
  accountId: string | null;
  accountEmail: string | null;
  clientHash: string;
  status: 'open' | 'closed';
  visitorEmail: string | null;
  blocked: boolean;
  visitorReadId: number;
  operatorReadId: number;
  visitorEnded: boolean;
  hasToken: boolean;
  language: string;
  createdAt: Date;
  assigneeId: string | null;
}

const CONVERSATION = `
  SELECT c.id, c.seq, c.account_id AS "accountId", a.email AS "accountEmail", c.client_hash AS "clientHash",
    c.status, c.visitor_email AS "visitorEmail", c.blocked, c.visitor_read_id AS "visitorReadId",
    c.operator_read_id AS "operatorReadId", c.visitor_ended_at IS NOT NULL AS "visitorEnded",
    c.visitor_token_hash IS NOT NULL AS "hasToken", c.language, c.created_at AS "createdAt",
    c.assignee_id AS "assigneeId"
  FROM chat_conversations c LEFT JOIN accounts a ON a.id = c.account_id`;

export async function findConversation(db: Queryable, id: number): Promise<ConversationRow | null> {
  const [row] = await db.query<ConversationRow>(`${CONVERSATION} WHERE c.id = $1`, [id]);
  return row ?? null;
}

/**
 * The conversation a visitor's cookie names, unless they ended it: its first browser's token, or
 * one a mailed link gave another browser (chat_visitor_tokens).
 */
export async function findByToken(db: Queryable, tokenHash: string): Promise<ConversationRow | null> {
  const [row] = await db.query<ConversationRow>(
    `${CONVERSATION} WHERE (c.visitor_token_hash = $1
       OR c.id = (SELECT t.conversation_id FROM chat_visitor_tokens t WHERE t.token_hash = $1))
       AND c.visitor_ended_at IS NULL`,
    [tokenHash],
  );
  return row ?? null;
}

/** A signed-in visitor's latest conversation that they have not ended, from whichever browser. */
export async function findByAccount(db: Queryable, accountId: string): Promise<ConversationRow | null> {
  const [row] = await db.query<ConversationRow>(
    `${CONVERSATION} WHERE c.account_id = $1 AND c.visitor_ended_at IS NULL ORDER BY c.last_message_at DESC LIMIT 1`,
    [accountId],
  );
  return row ?? null;
}

/**
 * A conversation started moments ago, from the same address and account, by a first message with
 * this client id: the browser sent it again because the answer (and its cookie) never arrived.
 * The client id is random and known only to that browser.
 */
export async function findRetriedStart(
  db: Queryable,
  clientMessageId: string,
  clientHash: string,
  accountId: string | null,
): Promise<number | null> {
  const [row] = await db.query<{ id: number }>(
    `SELECT c.id FROM chat_messages m JOIN chat_conversations c ON c.id = m.conversation_id
     WHERE m.client_message_id = $1 AND m.author = 'visitor' AND c.client_hash = $2
       AND c.account_id IS NOT DISTINCT FROM $3::uuid AND c.visitor_ended_at IS NULL
       AND c.created_at > statement_timestamp() - interval '5 minutes'
       AND (SELECT count(*) FROM chat_messages o WHERE o.conversation_id = c.id) = 1`,
    [clientMessageId, clientHash, accountId],
  );
  return row?.id ?? null;
}

export async function createConversation(
  tx: Queryable,
  start: { tokenHash: string; accountId: string | null; clientHash: string; language: string; page: string },
): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO chat_conversations (visitor_token_hash, account_id, client_hash, language, page)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [start.tokenHash, start.accountId, start.clientHash, start.language, start.page],
  );
  if (!row) throw new Error('Conversation insert returned no row');
  return row.id;
}

export async function replaceToken(tx: Queryable, conversationId: number, tokenHash: string): Promise<void> {
  await tx.query('UPDATE chat_conversations SET visitor_token_hash = $2 WHERE id = $1', [conversationId, tokenHash]);
}

const MESSAGE = `m.id, m.author, m.body, m.client_message_id AS "clientMessageId", m.created_at AS "createdAt"`;

interface MessageRow {
  id: number;
  author: ChatAuthor;
  body: string;
  clientMessageId: string;
  createdAt: Date;
}

const toMessage = (row: MessageRow): ChatMessage => ({
  id: Number(row.id),
  author: row.author,
  body: row.body,
  clientMessageId: row.clientMessageId,
  createdAt: new Date(row.createdAt).toISOString(),
});

/** Stores a message, or returns null when this conversation already has one with its client id. */
export async function insertChatMessage(
  tx: Queryable,
  message: { conversationId: number; author: ChatAuthor; operatorId?: string; body: string; clientMessageId: string },
): Promise<ChatMessage | null> {
  const [row] = await tx.query<MessageRow>(
    `INSERT INTO chat_messages AS m (conversation_id, author, operator_id, body, client_message_id)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (conversation_id, client_message_id) DO NOTHING
     RETURNING ${MESSAGE}`,
    [message.conversationId, message.author, message.operatorId ?? null, message.body, message.clientMessageId],
  );
  return row ? toMessage(row) : null;
}

/** A message by its client id; the visitor's side (`forVisitor`) never finds a note. */
export async function findMessageByClientId(
  db: Queryable,
  conversationId: number,
  clientMessageId: string,
  forVisitor = false,
): Promise<ChatMessage | null> {
  const [row] = await db.query<MessageRow>(
    `SELECT ${MESSAGE} FROM chat_messages m WHERE m.conversation_id = $1 AND m.client_message_id = $2
       AND ($3 = false OR ${VISIBLE_TO_VISITOR})`,
    [conversationId, clientMessageId, forVisitor],
  );
  return row ? toMessage(row) : null;
}

/**
 * A conversation changed: it moves to a new position (and its streams send it again). A message
 * also counts as activity and, from the visitor, opens a closed conversation again and records
 * the page and language they wrote from.
 */
export async function touchConversation(
  tx: Queryable,
  conversationId: number,
  change: {
    message?: true;
    visitor?: { page: string; language: string; accountId: string | null };
    reopen?: true;
  } = {},
): Promise<void> {
  await tx.query(
    `UPDATE chat_conversations SET seq = nextval('chat_seq'),
       last_message_at = CASE WHEN $2 THEN statement_timestamp() ELSE last_message_at END,
       status = CASE WHEN $3 THEN 'open' ELSE status END,
       page = coalesce($4, page), language = coalesce($5, language), account_id = coalesce(account_id, $6::uuid)
     WHERE id = $1`,
    [
      conversationId,
      change.message === true,
      change.reopen === true,
      change.visitor?.page ?? null,
      change.visitor?.language ?? null,
      change.visitor?.accountId ?? null,
    ],
  );
}

/** Messages of one conversation after a position, oldest first, as its visitor sees them. */
async function messagesAfter(
  db: Queryable,
  conversationId: number,
  after: number,
  limit: number,
): Promise<ChatMessage[]> {
  const rows = await db.query<MessageRow>(
    `SELECT ${MESSAGE} FROM chat_messages m WHERE m.conversation_id = $1 AND m.id > $2 AND ${VISIBLE_TO_VISITOR}
     ORDER BY m.id LIMIT $3`,
    [conversationId, after, limit],
  );
  return rows.map(toMessage);
}

/** The conversation's latest messages, oldest first, as its visitor sees them. */
export async function lastMessages(db: Queryable, conversationId: number, limit: number): Promise<ChatMessage[]> {
  const rows = await db.query<MessageRow>(
    `SELECT * FROM (SELECT ${MESSAGE} FROM chat_messages m WHERE m.conversation_id = $1 AND ${VISIBLE_TO_VISITOR}
       ORDER BY m.id DESC LIMIT $2) last
     ORDER BY id`,
    [conversationId, limit],
  );
  return rows.map(toMessage);
}

interface ConsoleMessageRow extends MessageRow {
  conversationId: number;
  operatorName: string | null;
}

const CONSOLE_MESSAGE = `SELECT ${MESSAGE}, m.conversation_id AS "conversationId", o.name AS "operatorName"
  FROM chat_messages m LEFT JOIN accounts o ON o.id = m.operator_id`;

const toConsoleMessage = (row: ConsoleMessageRow): ConsoleMessage => ({
  ...toMessage(row),
  conversationId: Number(row.conversationId),
  operatorName: row.operatorName,
});

/** Every conversation's messages after a position, oldest first: what a console stream missed. */
async function consoleMessagesAfter(db: Queryable, after: number, limit: number): Promise<ConsoleMessage[]> {
  const rows = await db.query<ConsoleMessageRow>(`${CONSOLE_MESSAGE} WHERE m.id > $1 ORDER BY m.id LIMIT $2`, [
    after,
    limit,
  ]);
  return rows.map(toConsoleMessage);
}

export async function consoleThread(db: Queryable, conversationId: number, limit: number): Promise<ConsoleMessage[]> {
  const rows = await db.query<ConsoleMessageRow>(
    `SELECT * FROM (${CONSOLE_MESSAGE} WHERE m.conversation_id = $1 ORDER BY m.id DESC LIMIT $2) last ORDER BY id`,
    [conversationId, limit],
  );
  return rows.map(toConsoleMessage);
}

interface SummaryRow {
  id: number;
  seq: number;
  status: 'open' | 'closed';
  language: string;
  page: string;
  createdAt: Date;
  lastMessageAt: Date;
  lastAuthor: ChatAuthor | null;
  lastBody: string | null;
  unread: number;
  visitorEmail: string | null;
  accountName: string | null;
  accountEmail: string | null;
  blocked: boolean;
  visitorEnded: boolean;
  operatorReadId: number;
  visitorReadId: number;
  assigneeId: string | null;
  assigneeName: string | null;
}

/** How much of the last message the list shows. */
const EXCERPT_LENGTH = 140;

const SUMMARY = `
  SELECT c.id, c.seq, c.status, c.language, c.page, c.created_at AS "createdAt", c.last_message_at AS "lastMessageAt",
    last.author AS "lastAuthor", left(last.body, ${EXCERPT_LENGTH}) AS "lastBody",
    (SELECT count(*) FROM chat_messages u
      WHERE u.conversation_id = c.id AND u.author = 'visitor' AND u.id > c.operator_read_id)::integer AS unread,
    c.visitor_email AS "visitorEmail", a.name AS "accountName", a.email AS "accountEmail", c.blocked,
    c.visitor_ended_at IS NOT NULL AS "visitorEnded", c.operator_read_id AS "operatorReadId",
    c.visitor_read_id AS "visitorReadId", c.assignee_id AS "assigneeId", assignee.name AS "assigneeName"
  FROM chat_conversations c
  LEFT JOIN accounts a ON a.id = c.account_id
  LEFT JOIN accounts assignee ON assignee.id = c.assignee_id
  LEFT JOIN LATERAL (
    SELECT author, body FROM chat_messages m WHERE m.conversation_id = c.id ORDER BY m.id DESC LIMIT 1) last ON true`;

const toSummary = (row: SummaryRow): ConsoleConversation => ({
  id: Number(row.id),
  seq: Number(row.seq),
  status: row.status,
  language: row.language,
  page: row.page,
  createdAt: new Date(row.createdAt).toISOString(),
  lastMessageAt: new Date(row.lastMessageAt).toISOString(),
  lastMessage: row.lastAuthor ? { author: row.lastAuthor, excerpt: row.lastBody ?? '' } : null,
  unread: row.unread,
  visitorEmail: row.visitorEmail,
  account: row.accountName && row.accountEmail ? { name: row.accountName, email: row.accountEmail } : null,
  blocked: row.blocked,
  visitorEnded: row.visitorEnded,
  operatorReadId: Number(row.operatorReadId),
  visitorReadId: Number(row.visitorReadId),
  assignee: row.assigneeId ? { id: row.assigneeId, name: row.assigneeName ?? '' } : null,
});

/**
 * The console's list: one status, newest activity first; `view` narrows it to the conversations
 * assigned to `me`, or to nobody.
 */
export async function listConversations(
  db: Queryable,
  status: 'open' | 'closed',
  limit: number,
  view: { kind: 'all' | 'mine' | 'unassigned'; me: string } = { kind: 'all', me: '' },
): Promise<ConsoleConversation[]> {
  const rows = await db.query<SummaryRow>(
    `${SUMMARY} WHERE c.status = $1
       AND ($3 = 'all' OR ($3 = 'mine' AND c.assignee_id = $4::uuid) OR ($3 = 'unassigned' AND c.assignee_id IS NULL))
     ORDER BY c.last_message_at DESC LIMIT $2`,
    [status, limit, view.kind, view.kind === 'mine' ? view.me : null],
  );
  return rows.map(toSummary);
}

export async function conversationSummary(db: Queryable, id: number): Promise<ConsoleConversation | null> {
  const [row] = await db.query<SummaryRow>(`${SUMMARY} WHERE c.id = $1`, [id]);
  return row ? toSummary(row) : null;
}

/** Conversations that changed after a position, in the order they changed. */
async function summariesChangedAfter(db: Queryable, after: number, limit: number): Promise<ConsoleConversation[]> {
  const rows = await db.query<SummaryRow>(`${SUMMARY} WHERE c.seq > $1 ORDER BY c.seq LIMIT $2`, [after, limit]);
  return rows.map(toSummary);
}

export async function setVisitorEmail(tx: Queryable, conversationId: number, email: string): Promise<void> {
  await tx.query('UPDATE chat_conversations SET visitor_email = $2 WHERE id = $1', [conversationId, email]);
}

/**
 * Moves a read marker forward to `upTo`, never past the conversation's last message and never
 * back; true when it moved.
 */
export async function markRead(
  tx: Queryable,
  conversationId: number,
  who: 'visitor' | 'operator',
  upTo: number,
): Promise<boolean> {
  const column = who === 'visitor' ? 'visitor_read_id' : 'operator_read_id';
  const rows = await tx.query(
    `UPDATE chat_conversations SET ${column} = least($2::bigint,
       (SELECT coalesce(max(id), 0) FROM chat_messages WHERE conversation_id = $1))
     WHERE id = $1 AND ${column} < least($2::bigint, (SELECT coalesce(max(id), 0) FROM chat_messages WHERE conversation_id = $1))
     RETURNING id`,
    [conversationId, upTo],
  );
  return rows.length > 0;
}

/** The visitor ended it: their cookie stops working and it leaves their browser, not the console. */
export async function endByVisitor(tx: Queryable, conversationId: number): Promise<void> {
  await tx.query(
    `UPDATE chat_conversations SET visitor_ended_at = statement_timestamp(), visitor_token_hash = NULL, status = 'closed'
     WHERE id = $1`,
    [conversationId],
  );
}

export async function setConversationStatus(
  tx: Queryable,
  conversationId: number,
  status: 'open' | 'closed',
): Promise<void> {
  await tx.query('UPDATE chat_conversations SET status = $2 WHERE id = $1', [conversationId, status]);
}

/** How long a block lasts; a visitor's address changes, and a block should not outlive its reason. */
export const BLOCK_DAYS = 30;

/** Blocks the conversation and, for BLOCK_DAYS, new ones from its address and its account. */
export async function setBlocked(
  tx: Queryable,
  conversation: Pick<ConversationRow, 'id' | 'clientHash' | 'accountId'>,
  blocked: boolean,
): Promise<void> {
  await tx.query('UPDATE chat_conversations SET blocked = $2 WHERE id = $1', [conversation.id, blocked]);
  await tx.query('DELETE FROM chat_blocks WHERE conversation_id = $1', [conversation.id]);
  if (!blocked) return;
  for (const subject of blockSubjects(conversation.clientHash, conversation.accountId)) {
    await tx.query(
      `INSERT INTO chat_blocks (subject, conversation_id, expires_at)
       VALUES ($1, $2, statement_timestamp() + $3::integer * interval '1 day')
       ON CONFLICT (subject) DO UPDATE SET conversation_id = excluded.conversation_id, expires_at = excluded.expires_at`,
      [subject, conversation.id, BLOCK_DAYS],
    );
  }
}

export const blockSubjects = (clientHash: string, accountId: string | null) =>
  accountId ? [`client:${clientHash}`, `account:${accountId}`] : [`client:${clientHash}`];

export async function isBlocked(db: Queryable, subjects: string[]): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 FROM chat_blocks WHERE subject = ANY($1::text[]) AND expires_at > statement_timestamp()',
    [subjects],
  );
  return rows.length > 0;
}

/** Operators and admins with a console stream seen within PRESENCE_FRESH_SECONDS. */
export async function operatorsOnline(db: Queryable): Promise<OperatorPresence[]> {
  return db.query<OperatorPresence>(
    `SELECT DISTINCT a.id::text AS id, a.name FROM chat_presence p JOIN accounts a ON a.id = p.account_id
     WHERE p.seen_at > statement_timestamp() - $1::integer * interval '1 second' AND a.role IN ('operator', 'admin')
     ORDER BY a.name, id`,
    [PRESENCE_FRESH_SECONDS],
  );
}

export async function addPresence(db: Queryable, streamId: string, accountId: string): Promise<void> {
  await db.query('INSERT INTO chat_presence (stream_id, account_id) VALUES ($1, $2)', [streamId, accountId]);
}

export async function touchPresence(db: Queryable, streamIds: string[]): Promise<void> {
  await db.query('UPDATE chat_presence SET seen_at = statement_timestamp() WHERE stream_id = ANY($1::uuid[])', [
    streamIds,
  ]);
}

export async function removePresence(db: Queryable, streamId: string): Promise<void> {
  await db.query('DELETE FROM chat_presence WHERE stream_id = $1', [streamId]);
}

/**
 * The retention period: messages older than `messageDays` go, and conversations with no activity
 * for that long go with the rest of theirs; stale presence rows and ended blocks too.
 */
export async function pruneChat(
  db: Queryable,
  messageDays: number,
): Promise<{ messages: number; conversations: number }> {
  const [conversations] = await db.query<{ deleted: number }>(
    `WITH gone AS (DELETE FROM chat_conversations
       WHERE last_message_at < statement_timestamp() - $1::integer * interval '1 day' RETURNING 1)
     SELECT count(*)::integer AS deleted FROM gone`,
    [messageDays],
  );
  const [messages] = await db.query<{ deleted: number }>(
    `WITH gone AS (DELETE FROM chat_messages
       WHERE created_at < statement_timestamp() - $1::integer * interval '1 day' RETURNING 1)
     SELECT count(*)::integer AS deleted FROM gone`,
    [messageDays],
  );
  await db.query(`DELETE FROM chat_presence WHERE seen_at < statement_timestamp() - interval '1 hour'`);
  await db.query('DELETE FROM chat_blocks WHERE expires_at <= statement_timestamp()');
  return { messages: messages?.deleted ?? 0, conversations: conversations?.deleted ?? 0 };
}

/** What a console stream missed after a position, up to `limit` of each kind: one snapshot (chatRead). */
export const consoleChangesAfter = (db: Database, after: number, limit: number) =>
  chatRead(db, async (tx) => ({
    messages: await consoleMessagesAfter(tx, after, limit),
    conversations: await summariesChangedAfter(tx, after, limit),
  }));

/** What a visitor's stream missed after a position, and the conversation as it is now: one snapshot. */
export const visitorChangesAfter = (db: Database, conversationId: number, after: number, limit: number) =>
  chatRead(db, async (tx) => ({
    messages: await messagesAfter(tx, conversationId, after, limit),
    conversation: await findConversation(tx, conversationId),
  }));
