import type { ChatMessage } from '#common/chat-api.ts';
import { RETENTION } from '#common/retention.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import { enqueue, type JobDefinitions } from '#server/platform/jobs/jobs.ts';
import { queueMail } from '#server/platform/mail/mail-queue.ts';
import { pruneChat } from './chat-queries.ts';
import { type ReplyMailTexts, unreadReplyMail } from './reply-mail.ts';

const REPLY_MAIL = 'chat.reply-mail';
/** How many of the conversation's last messages the mail shows, the replies it is about included. */
const MAIL_MESSAGES = 5;

interface ReplyMailJob {
  conversationId: number;
  /** The reply that caused this job; if it was read or mailed by then, the job does nothing. */
  messageId: number;
  delaySeconds: number;
  texts: ReplyMailTexts;
}

/**
 * Called in the transaction of an operator's reply: in `delaySeconds`, if the visitor has not seen
 * it, it is mailed to them. Each reply has its job; the first due mails every reply then unread,
 * the others find them mailed.
 */
export async function scheduleReplyMail(tx: Queryable, job: ReplyMailJob): Promise<void> {
  await enqueue(tx, REPLY_MAIL, job, { delaySeconds: job.delaySeconds });
}

interface MailState {
  to: string | null;
  visitorReadId: number;
  mailedUpTo: number;
}

/**
 * Mails the visitor the team's replies they did not read within the delay, once: the conversation
 * row is locked while the mail is queued and `mailed_up_to` moves past them, in one transaction,
 * so two instances running two jobs of one conversation send one mail.
 */
async function mailUnreadReplies(tx: Queryable, job: ReplyMailJob): Promise<void> {
  const [state] = await tx.query<MailState>(
    `SELECT coalesce(c.visitor_email, a.email) AS "to", c.visitor_read_id AS "visitorReadId",
       c.mailed_up_to AS "mailedUpTo"
     FROM chat_conversations c LEFT JOIN accounts a ON a.id = c.account_id WHERE c.id = $1 FOR UPDATE OF c`,
    [job.conversationId],
  );
  if (!state?.to) return;
  const after = Math.max(Number(state.visitorReadId), Number(state.mailedUpTo));
  if (job.messageId <= after) return;
  // Every reply still unread goes in this one mail, later ones of the same exchange too: their own
  // jobs then find them mailed.
  const [due] = await tx.query<{ upTo: number | null }>(
    `SELECT max(id) AS "upTo" FROM chat_messages WHERE conversation_id = $1 AND author = 'operator' AND id > $2`,
    [job.conversationId, after],
  );
  if (!due?.upTo) return;
  const messages = await tx.query<ChatMessage>(
    `SELECT * FROM (
       SELECT id, author, body, client_message_id AS "clientMessageId", created_at AS "createdAt" FROM chat_messages
       WHERE conversation_id = $1 AND id <= $2 AND author <> 'note' ORDER BY id DESC LIMIT $3) last
     ORDER BY id`,
    [job.conversationId, due.upTo, MAIL_MESSAGES],
  );
  await queueMail(tx, unreadReplyMail(state.to, job.texts, messages));
  await tx.query('UPDATE chat_conversations SET mailed_up_to = $2 WHERE id = $1', [job.conversationId, due.upTo]);
}

export const chatJobs: JobDefinitions = {
  [REPLY_MAIL]: {
    run: (payload, { db }) => db.transaction((tx) => mailUnreadReplies(tx, payload as ReplyMailJob)),
  },
  // Messages are kept RETENTION.messageDays, as the privacy policy says; presence rows of instances
  // that died and ended blocks go too.
  'chat.prune': {
    everySeconds: 60 * 60,
    run: async (_, { db }) => {
      await pruneChat(db, RETENTION.messageDays);
    },
  },
};
