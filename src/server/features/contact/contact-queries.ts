import {
  INBOX_STATUSES,
  MESSAGE_STATUSES,
  type MessageAction,
  type MessageDetail,
  type MessageStatus,
  type MessageSummary,
  type MessagesAnswer,
  type SettableStatus,
} from '#common/inbox-api.ts';
import type { MessagesQuery } from '#common/inbox-schemas.ts';
import type { Language } from '#common/languages.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import { deliveryOf, jobStateSql } from '#server/platform/mail/delivery.ts';
import type { SpamReason } from './spam.ts';

export interface NewMessage {
  language: Language;
  page: string | null;
  name: string;
  email: string;
  subject: string;
  body: string;
  spamReason: SpamReason | null;
  /** The signed-in sender's account, if any. */
  accountId: string | null;
}

/**
 * Stores a message. It belongs to the sender's account when they were signed in, else to a
 * confirmed account with the same address (its owner proved the mailbox is theirs), so that
 * deleting that account deletes it too.
 */
export async function insertContactMessage(
  db: Queryable,
  message: NewMessage,
): Promise<{ id: string; createdAt: Date }> {
  const [row] = await db.query<{ id: string; createdAt: Date }>(
    `INSERT INTO contact_messages (language, page, name, email, subject, body, status, spam_reason, account_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8,
       coalesce($9::uuid, (SELECT id FROM accounts WHERE email = $4 AND verified_at IS NOT NULL)))
     RETURNING id, created_at AS "createdAt"`,
    [
      message.language,
      message.page,
      message.name,
      message.email,
      message.subject,
      message.body,
      message.spamReason ? 'spam' : 'new',
      message.spamReason,
      message.accountId,
    ],
  );
  if (!row) throw new Error('Storing a contact message returned no row');
  return row;
}

const PAGE_SIZE = 50;
const PREVIEW_LENGTH = 160;

/** A summary as the database gives it: the same fields, the time still a Date. */
type SummaryRow = Omit<MessageSummary, 'createdAt'> & { createdAt: Date };

const summary = (row: SummaryRow): MessageSummary => ({ ...row, createdAt: row.createdAt.toISOString() });

/** `%`, `_` and `\` are wildcards to LIKE; a search for them means the characters themselves. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of messages, newest first, with the filters of the inbox. Search looks for the words
 * together in the name, the address or the text, ignoring case.
 */
export async function listMessages(db: Queryable, query: MessagesQuery): Promise<MessagesAnswer> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (query.status === 'inbox') where.push(`m.status = ANY(${param(INBOX_STATUSES)}::text[])`);
  else if (query.status !== 'all') where.push(`m.status = ${param(query.status)}`);
  if (query.language) where.push(`m.language = ${param(query.language)}`);
  if (query.from) where.push(`m.created_at >= ${param(query.from)}::date`);
  if (query.to) where.push(`m.created_at < ${param(query.to)}::date + 1`);
  const q = query.q?.trim();
  if (q) {
    const pattern = param(likePattern(q));
    where.push(`(m.name ILIKE ${pattern} OR m.email ILIKE ${pattern} OR m.body ILIKE ${pattern})`);
  }
  if (query.before) {
    const [time, id] = query.before.split('_');
    where.push(`(m.created_at, m.id) < (${param(time)}::timestamptz, ${param(id)}::uuid)`);
  }
  const rows = await db.query<SummaryRow>(
    `SELECT m.id, m.created_at AS "createdAt", m.name, m.email, m.subject, m.language, m.status,
       left(m.body, ${PREVIEW_LENGTH}) AS preview,
       (SELECT count(*) FROM contact_replies r WHERE r.message_id = m.id)::integer AS replies
     FROM contact_messages m
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY m.created_at DESC, m.id DESC
     LIMIT ${PAGE_SIZE + 1}`,
    params,
  );
  const page = rows.slice(0, PAGE_SIZE);
  const last = page[page.length - 1];
  const countRows = await db.query<{ status: MessageStatus; n: number }>(
    'SELECT status, count(*)::integer AS n FROM contact_messages GROUP BY status',
  );
  const counts = Object.fromEntries(MESSAGE_STATUSES.map((status) => [status, 0])) as Record<MessageStatus, number>;
  for (const row of countRows) counts[row.status] = row.n;
  return {
    messages: page.map(summary),
    next: rows.length > PAGE_SIZE && last ? `${last.createdAt.toISOString()}_${last.id}` : null,
    counts,
  };
}

/** A message with its thread (the replies) and what staff did with it. */
export async function getMessage(db: Queryable, id: string): Promise<MessageDetail | null> {
  const [row] = await db.query<
    SummaryRow & { body: string; page: string | null; spamReason: string | null; fromAccount: boolean }
  >(
    `SELECT m.id, m.created_at AS "createdAt", m.name, m.email, m.subject, m.language, m.status,
       left(m.body, ${PREVIEW_LENGTH}) AS preview, m.body, m.page, m.spam_reason AS "spamReason",
       m.account_id IS NOT NULL AS "fromAccount",
       (SELECT count(*) FROM contact_replies r WHERE r.message_id = m.id)::integer AS replies
     FROM contact_messages m WHERE m.id = $1`,
    [id],
  );
  if (!row) return null;
  const replies = await db.query<{
    id: string;
    body: string;
    createdAt: Date;
    author: string | null;
    sentAt: Date | null;
    kept: boolean;
    job: 'queued' | 'retrying' | null;
  }>(
    `SELECT r.id, r.body, r.created_at AS "createdAt", a.name AS author, r.sent_at AS "sentAt", r.kept,
       ${jobStateSql('replyId', '$2', 'r.id::text')} AS job
     FROM contact_replies r LEFT JOIN accounts a ON a.id = r.author_id
     WHERE r.message_id = $1 ORDER BY r.created_at, r.id`,
    [id, CONTACT_MAIL_JOB],
  );
  const events = await db.query<{ action: MessageAction; actor: string | null; createdAt: Date }>(
    `SELECT e.action, a.name AS actor, e.created_at AS "createdAt"
     FROM contact_events e LEFT JOIN accounts a ON a.id = e.actor_id
     WHERE e.message_id = $1 ORDER BY e.id`,
    [id],
  );
  return {
    message: {
      ...summary(row),
      body: row.body,
      page: row.page,
      spamReason: row.spamReason,
      fromAccount: row.fromAccount,
    },
    replies: replies.map((reply) => ({
      id: reply.id,
      body: reply.body,
      createdAt: reply.createdAt.toISOString(),
      author: reply.author,
      delivery: deliveryOf(reply.sentAt, reply.kept, reply.job),
      sentAt: reply.sentAt?.toISOString() ?? null,
    })),
    events: events.map((event) => ({ ...event, createdAt: event.createdAt.toISOString() })),
  };
}

export async function recordEvent(db: Queryable, messageId: string, actorId: string, action: MessageAction) {
  await db.query('INSERT INTO contact_events (message_id, actor_id, action) VALUES ($1, $2, $3)', [
    messageId,
    actorId,
    action,
  ]);
}

/** What setting a status is recorded as, or null when nothing changes. */
function actionOf(from: MessageStatus, to: SettableStatus): MessageAction | null {
  if (from === to) return null;
  if (from === 'spam') return 'not-spam';
  if (to === 'spam') return 'spam';
  if (to === 'archived') return 'archived';
  if (from === 'archived') return 'restored';
  return to === 'new' ? 'unread' : 'read';
}

/**
 * Sets a message's status and records who did it. Marking a message read that is already answered
 * keeps it answered; null when there is no such message.
 */
export async function setMessageStatus(
  db: Queryable,
  id: string,
  status: SettableStatus,
  actorId: string,
): Promise<MessageStatus | null> {
  const [row] = await db.query<{ status: MessageStatus }>(
    'SELECT status FROM contact_messages WHERE id = $1 FOR UPDATE',
    [id],
  );
  if (!row) return null;
  const target = status === 'read' && row.status === 'answered' ? 'answered' : status;
  const action = target === 'answered' ? null : actionOf(row.status, target);
  if (!action) return row.status;
  await db.query('UPDATE contact_messages SET status = $2 WHERE id = $1', [id, target]);
  await recordEvent(db, id, actorId, action);
  return target;
}

export interface StoredMessage {
  id: string;
  createdAt: Date;
  language: Language;
  page: string | null;
  name: string;
  email: string;
  subject: string;
  body: string;
  status: MessageStatus;
}

export async function findMessage(db: Queryable, id: string, lock = false): Promise<StoredMessage | null> {
  const [row] = await db.query<StoredMessage>(
    `SELECT id, created_at AS "createdAt", language, page, name, email, subject, body, status
     FROM contact_messages WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return row ?? null;
}

/** Stores a reply in the thread; the message counts as answered and its retention starts again. */
export async function insertReply(db: Queryable, messageId: string, authorId: string, body: string) {
  const [row] = await db.query<{ id: string; createdAt: Date }>(
    `INSERT INTO contact_replies (message_id, author_id, body) VALUES ($1, $2, $3)
     RETURNING id, created_at AS "createdAt"`,
    [messageId, authorId, body],
  );
  if (!row) throw new Error('Storing a reply returned no row');
  await db.query(
    `UPDATE contact_messages SET status = 'answered', last_activity_at = statement_timestamp() WHERE id = $1`,
    [messageId],
  );
  await recordEvent(db, messageId, authorId, 'replied');
  return row;
}

/** The job kind that mails the team about a message, or a reply to its sender. */
export const CONTACT_MAIL_JOB = 'contact.mail';

/** Deletes a message with its replies and any mail about it still waiting; the deletion is recorded. */
export async function deleteMessage(db: Queryable, id: string, actorId: string): Promise<boolean> {
  const deleted = await db.query('DELETE FROM contact_messages WHERE id = $1 RETURNING 1', [id]);
  if (deleted.length === 0) return false;
  await db.query(`DELETE FROM jobs WHERE kind = $1 AND payload->>'messageId' = $2`, [CONTACT_MAIL_JOB, id]);
  await recordEvent(db, id, actorId, 'deleted');
  return true;
}

/**
 * Deletes messages (with their replies and waiting mail) whose last activity is older than `days`,
 * spam older than `spamDays`, and records of staff actions older than `days`; returns how many
 * messages went.
 */
export async function pruneMessages(db: Queryable, days: number, spamDays: number): Promise<number> {
  const [row] = await db.query<{ deleted: number }>(
    `WITH gone AS (
       DELETE FROM contact_messages
       WHERE last_activity_at < statement_timestamp() - $1::integer * interval '1 day'
          OR (status = 'spam' AND created_at < statement_timestamp() - $2::integer * interval '1 day')
       RETURNING id),
     mail AS (DELETE FROM jobs WHERE kind = $3 AND payload->>'messageId' IN (SELECT id::text FROM gone) RETURNING 1)
     SELECT count(*)::integer AS deleted FROM gone`,
    [days, spamDays, CONTACT_MAIL_JOB],
  );
  await db.query(
    `DELETE FROM contact_events WHERE created_at < statement_timestamp() - $1::integer * interval '1 day'`,
    [days],
  );
  return row?.deleted ?? 0;
}
