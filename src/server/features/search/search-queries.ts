import type { ChatSearchHit, ContactSearchHit, SearchAnswer } from '#common/chat-desk-api.ts';
import type { Queryable } from '#server/platform/db/database.ts';

/** Hits of each kind an answer lists, newest first. */
export const SEARCH_LIMIT = 20;
const EXCERPT = 200;

/**
 * What was typed, as one text-search query in every stemming the site's languages have (OR'ed):
 * the stored vectors are each in their own language's stemming (migration 080), so "Lieferungen"
 * finds "Lieferung" in German text and "deliveries" finds "delivery" in English text, whatever the
 * operator's language. `simple` covers Thai and any other language without a stemmer, word for word.
 */
const QUERY = `(websearch_to_tsquery('english', $1) || websearch_to_tsquery('italian', $1)
  || websearch_to_tsquery('french', $1) || websearch_to_tsquery('german', $1)
  || websearch_to_tsquery('dutch', $1) || websearch_to_tsquery('simple', $1))`;

/**
 * Thai is written without spaces between words: no stemmer splits it, so it is matched as plain
 * text (strpos: Thai has no letter case, and it is quicker than ILIKE).
 */
const THAI = /[\u0e00-\u0e7f]/u;

/** A LIKE pattern that finds `text` anywhere, its own % and _ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

interface ChatHitRow extends Omit<ChatSearchHit, 'createdAt'> {
  createdAt: Date;
}

const CHAT_HIT_COLUMNS = `m.conversation_id AS "conversationId", m.id AS "messageId", c.language,
  coalesce(a.name, c.visitor_email, a.email) AS visitor, m.author, left(m.body, ${EXCERPT}) AS excerpt,
  m.created_at AS "createdAt"`;

/**
 * The newest messages that meet `condition`. They are picked on their own first, ordered by an
 * expression (`id + 0`) rather than the primary key: otherwise the planner may walk every message
 * backwards by id, testing each, which for a rare word means all of them; this way it takes the
 * GIN index (or the Thai partial index) and sorts what it found.
 */
const messagesWhere = (condition: string) => `
  WITH found AS MATERIALIZED (
    SELECT m.id FROM chat_messages m WHERE ${condition} ORDER BY m.id + 0 DESC LIMIT $2)
  SELECT ${CHAT_HIT_COLUMNS}
  FROM found JOIN chat_messages m ON m.id = found.id JOIN chat_conversations c ON c.id = m.conversation_id
  LEFT JOIN accounts a ON a.id = c.account_id
  ORDER BY m.id DESC`;

const toChatHit = (row: ChatHitRow): ChatSearchHit => ({
  ...row,
  conversationId: Number(row.conversationId),
  messageId: Number(row.messageId),
  createdAt: new Date(row.createdAt).toISOString(),
});

/**
 * Chats whose visitor matches (name or address, shown with their last message) first, then
 * messages whose words match, one hit per conversation.
 */
async function searchChats(db: Queryable, q: string): Promise<ChatSearchHit[]> {
  const pattern = containing(q);
  const visitors = await db.query<ChatHitRow>(
    `SELECT ${CHAT_HIT_COLUMNS}
     FROM chat_conversations c LEFT JOIN accounts a ON a.id = c.account_id
     JOIN LATERAL (SELECT * FROM chat_messages l WHERE l.conversation_id = c.id ORDER BY l.id DESC LIMIT 1) m ON true
     WHERE c.visitor_email ILIKE $1 OR a.email ILIKE $1 OR a.name ILIKE $1
     ORDER BY c.last_message_at DESC LIMIT $2`,
    [pattern, SEARCH_LIMIT],
  );
  const words = await db.query<ChatHitRow>(messagesWhere(`m.search @@ ${QUERY}`), [q, SEARCH_LIMIT * 3]);
  const thai = THAI.test(q)
    ? await db.query<ChatHitRow>(messagesWhere(`m.language = 'th' AND strpos(m.body, $1) > 0`), [q, SEARCH_LIMIT * 3])
    : [];
  const seen = new Set<number>();
  const hits: ChatSearchHit[] = [];
  const byNewest = [...words, ...thai].sort((x, y) => Number(y.messageId) - Number(x.messageId));
  for (const row of [...visitors, ...byNewest]) {
    const hit = toChatHit(row);
    if (seen.has(hit.conversationId)) continue;
    seen.add(hit.conversationId);
    hits.push(hit);
    if (hits.length === SEARCH_LIMIT) break;
  }
  return hits;
}

interface ContactHitRow extends Omit<ContactSearchHit, 'createdAt'> {
  createdAt: Date;
}

/** Contact messages by sender (name or address) or by the words of their subject and text. */
async function searchContact(db: Queryable, q: string): Promise<ContactSearchHit[]> {
  const rows = await db.query<ContactHitRow>(
    `SELECT id::text AS id, language, name, email, subject, left(body, ${EXCERPT}) AS excerpt, created_at AS "createdAt"
     FROM contact_messages
     WHERE search @@ ${QUERY} OR email ILIKE $2 OR name ILIKE $2
       OR ($3 AND language = 'th' AND strpos(subject || ' ' || body, $1) > 0)
     ORDER BY created_at DESC LIMIT $4`,
    [q, containing(q), THAI.test(q), SEARCH_LIMIT],
  );
  return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt).toISOString() }));
}

export async function search(db: Queryable, q: string): Promise<SearchAnswer> {
  return { chats: await searchChats(db, q), contact: await searchContact(db, q) };
}
