import type { QualityAnswer, QualityWeek } from '#common/chat-desk-api.ts';
import type { Queryable } from '#server/platform/db/database.ts';

/** The visitor's rating; rating again replaces it. */
export async function saveRating(db: Queryable, conversationId: number, score: number, comment: string | null) {
  await db.query(
    `INSERT INTO chat_ratings (conversation_id, score, comment) VALUES ($1, $2, $3)
     ON CONFLICT (conversation_id) DO UPDATE SET score = excluded.score, comment = excluded.comment,
       created_at = statement_timestamp()`,
    [conversationId, score, comment],
  );
}

/** Another browser's token for the conversation (from a mailed link); only its hash is kept. */
export async function addVisitorToken(db: Queryable, conversationId: number, tokenHash: string) {
  await db.query('INSERT INTO chat_visitor_tokens (token_hash, conversation_id) VALUES ($1, $2)', [
    tokenHash,
    conversationId,
  ]);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Mondays (UTC) of the last `weeks` weeks, oldest first, this week last. */
export function lastMondays(weeks: number, now = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  return Array.from({ length: weeks }, (_, i) =>
    new Date(monday - (weeks - 1 - i) * 7 * DAY_MS).toISOString().slice(0, 10),
  );
}

/**
 * Ratings and first-reply times per week (Monday to Sunday, UTC) over the last `weeks` weeks. A
 * conversation's first reply is the team's first message after the visitor's first; it counts in
 * the week the visitor wrote. Weeks without data are listed with nulls.
 */
export async function chatQuality(db: Queryable, weeks: number, now = new Date()): Promise<QualityAnswer> {
  const mondays = lastMondays(weeks, now);
  const from = `${mondays[0]}T00:00:00Z`;
  const ratings = await db.query<{ week: string; ratings: number; average: number | null }>(
    `SELECT to_char(date_trunc('week', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS week,
       count(*)::integer AS ratings, avg(score)::float8 AS average
     FROM chat_ratings WHERE created_at >= $1::timestamptz GROUP BY 1`,
    [from],
  );
  const replies = await db.query<{ week: string; replies: number; median: number | null }>(
    `WITH firsts AS (
       SELECT c.id,
         (SELECT min(m.created_at) FROM chat_messages m WHERE m.conversation_id = c.id AND m.author = 'visitor') AS asked,
         (SELECT min(m.created_at) FROM chat_messages m WHERE m.conversation_id = c.id AND m.author = 'operator') AS answered
       FROM chat_conversations c WHERE c.created_at >= $1::timestamptz)
     SELECT to_char(date_trunc('week', asked AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS week,
       count(*)::integer AS replies,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM answered - asked))::float8 AS median
     FROM firsts WHERE asked IS NOT NULL AND answered >= asked GROUP BY 1`,
    [from],
  );
  const comments = await db.query<{ score: number; comment: string; createdAt: Date }>(
    `SELECT score, comment, created_at AS "createdAt" FROM chat_ratings
     WHERE comment IS NOT NULL AND created_at >= $1::timestamptz ORDER BY created_at DESC LIMIT 20`,
    [from],
  );
  const byWeek = <T extends { week: string }>(rows: T[]) => new Map(rows.map((row) => [row.week, row]));
  const rated = byWeek(ratings);
  const answered = byWeek(replies);
  return {
    weeks: mondays.map(
      (week): QualityWeek => ({
        week,
        ratings: rated.get(week)?.ratings ?? 0,
        averageScore: rated.get(week)?.average ?? null,
        firstReplies: answered.get(week)?.replies ?? 0,
        medianFirstReplySeconds: answered.get(week)?.median ?? null,
      }),
    ),
    comments: comments.map((row) => ({
      score: row.score,
      comment: row.comment,
      createdAt: new Date(row.createdAt).toISOString(),
    })),
  };
}
