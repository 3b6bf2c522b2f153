import type { SavedReply, TeamMember } from '#common/chat-desk-api.ts';
import type { Language } from '#common/languages.ts';
import type { Queryable } from '#server/platform/db/database.ts';

export async function listSavedReplies(db: Queryable): Promise<SavedReply[]> {
  const rows = await db.query<SavedReply>('SELECT id, shortcut, texts FROM chat_saved_replies ORDER BY shortcut');
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** Stores a new saved reply; null when its shortcut is taken. */
export async function insertSavedReply(
  db: Queryable,
  reply: { shortcut: string; texts: Partial<Record<Language, string>> },
): Promise<SavedReply | null> {
  const [row] = await db.query<SavedReply>(
    `INSERT INTO chat_saved_replies (shortcut, texts) VALUES ($1, $2::jsonb) ON CONFLICT (shortcut) DO NOTHING
     RETURNING id, shortcut, texts`,
    [reply.shortcut, JSON.stringify(reply.texts)],
  );
  return row ? { ...row, id: Number(row.id) } : null;
}

/** Replaces a saved reply's shortcut and texts: 'missing' when it is gone, 'taken' for another's shortcut. */
export async function updateSavedReply(
  db: Queryable,
  id: number,
  reply: { shortcut: string; texts: Partial<Record<Language, string>> },
): Promise<SavedReply | 'missing' | 'taken'> {
  const [other] = await db.query('SELECT 1 FROM chat_saved_replies WHERE shortcut = $1 AND id <> $2', [
    reply.shortcut,
    id,
  ]);
  if (other) return 'taken';
  const [row] = await db.query<SavedReply>(
    `UPDATE chat_saved_replies SET shortcut = $2, texts = $3::jsonb, updated_at = statement_timestamp()
     WHERE id = $1 RETURNING id, shortcut, texts`,
    [id, reply.shortcut, JSON.stringify(reply.texts)],
  );
  return row ? { ...row, id: Number(row.id) } : 'missing';
}

export async function deleteSavedReply(db: Queryable, id: number): Promise<boolean> {
  return (await db.query('DELETE FROM chat_saved_replies WHERE id = $1 RETURNING id', [id])).length > 0;
}

/** Operators and admins, whom a conversation can be handed to. */
export async function listTeam(db: Queryable): Promise<TeamMember[]> {
  return db.query<TeamMember>(
    `SELECT id::text AS id, name FROM accounts WHERE role IN ('operator', 'admin') ORDER BY lower(name), id`,
  );
}

/** A member of the team with what their mail needs; null for anyone else. */
export async function teamMember(
  db: Queryable,
  id: string,
): Promise<{ id: string; name: string; email: string; language: string } | null> {
  const [row] = await db.query<{ id: string; name: string; email: string; language: string }>(
    `SELECT id::text AS id, name, email, language FROM accounts WHERE id = $1 AND role IN ('operator', 'admin')`,
    [id],
  );
  return row ?? null;
}

/** Hands the conversation to `assignee`, or to nobody. */
export async function setAssignee(tx: Queryable, conversationId: number, assignee: string | null): Promise<void> {
  await tx.query('UPDATE chat_conversations SET assignee_id = $2 WHERE id = $1', [conversationId, assignee]);
}
