import type { Language } from '#common/languages.ts';
import type { EditableNamespace, TextHistoryEntry } from '#common/site-texts.ts';
import { notifyIn, type Queryable } from '#server/platform/db/database.ts';

/** Instances hear on this channel that texts were published, and render the pages again. */
export const SITE_TEXTS_CHANNEL = 'site_texts';

/** One text of one language, by its namespace and dotted key. */
export interface TextAddress {
  language: Language;
  namespace: EditableNamespace;
  key: string;
}

/** A published or draft text, with the English text it was written against. */
export interface StoredText extends TextAddress {
  value: string;
  source: string;
}

export async function publishedTexts(db: Queryable): Promise<StoredText[]> {
  return db.query<StoredText>('SELECT language, namespace, key, value, source FROM site_texts');
}

export async function draftTexts(db: Queryable): Promise<StoredText[]> {
  return db.query<StoredText>(
    'SELECT language, namespace, key, value, source FROM site_text_drafts ORDER BY namespace, language, key',
  );
}

export async function saveDraft(db: Queryable, text: StoredText, accountId: string): Promise<void> {
  await db.query(
    `INSERT INTO site_text_drafts (language, namespace, key, value, source, updated_by)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (language, namespace, key)
     DO UPDATE SET value = $4, source = $5, updated_by = $6, updated_at = now()`,
    [text.language, text.namespace, text.key, text.value, text.source, accountId],
  );
}

export async function dropDraft(db: Queryable, text: TextAddress): Promise<void> {
  await db.query('DELETE FROM site_text_drafts WHERE language = $1 AND namespace = $2 AND key = $3', [
    text.language,
    text.namespace,
    text.key,
  ]);
}

/**
 * Publishes one text in `tx`: `value` null (or the release's own text, `shipped`) puts the
 * release's text back. Records it in the history and tells every instance at COMMIT.
 */
export async function publishText(
  tx: Queryable,
  text: TextAddress & { value: string | null; source: string | null },
  shipped: string | undefined,
  by: { accountId: string; name: string },
): Promise<void> {
  const back = text.value === null || text.value === shipped;
  const address = [text.language, text.namespace, text.key];
  if (back) {
    await tx.query('DELETE FROM site_texts WHERE language = $1 AND namespace = $2 AND key = $3', address);
  } else {
    await tx.query(
      `INSERT INTO site_texts (language, namespace, key, value, source) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (language, namespace, key) DO UPDATE SET value = $4, source = $5, published_at = now()`,
      [...address, text.value, text.source ?? text.value],
    );
  }
  await tx.query(
    `INSERT INTO site_text_history (language, namespace, key, value, source, published_by, published_by_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [...address, back ? null : text.value, back ? null : text.source, by.accountId, by.name],
  );
  await tx.query('DELETE FROM site_text_drafts WHERE language = $1 AND namespace = $2 AND key = $3', address);
  await notifyIn(tx, SITE_TEXTS_CHANNEL, '');
}

/** What was published for one text, newest first. */
export async function textHistory(db: Queryable, text: TextAddress, limit = 50): Promise<TextHistoryEntry[]> {
  const rows = await db.query<{ id: string; value: string | null; by: string; at: Date }>(
    // Ordered by the column, not by the text the answer carries ("9" sorts after "10").
    `SELECT id::text AS id, value, published_by_name AS by, published_at AS at FROM site_text_history h
     WHERE language = $1 AND namespace = $2 AND key = $3 ORDER BY h.id DESC LIMIT $4`,
    [text.language, text.namespace, text.key, limit],
  );
  return rows.map((row) => ({ ...row, at: new Date(row.at).toISOString() }));
}

/** The two latest publications of a text (with their English sources), newest first. */
export async function lastTwoPublications(
  db: Queryable,
  text: TextAddress,
): Promise<{ value: string | null; source: string | null }[]> {
  return db.query(
    `SELECT value, source FROM site_text_history
     WHERE language = $1 AND namespace = $2 AND key = $3 ORDER BY id DESC LIMIT 2`,
    [text.language, text.namespace, text.key],
  );
}
