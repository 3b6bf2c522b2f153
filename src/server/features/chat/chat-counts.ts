import type { Queryable } from '#server/platform/db/database.ts';

/**
 * Chat conversations started per hour or day of the site's time zone, between two instants, and
 * how many of them had an answer from the team, with the median wait for that first answer. For the
 * analytics page (decision 180).
 */
export async function chatConversationsPer(
  db: Queryable,
  span: { start: Date; end: Date },
  timeZone: string,
  hourly: boolean,
): Promise<{ bucket: string; count: number; answered: number; medianFirstReplySeconds: number | null }[]> {
  return db.query(
    `SELECT to_char(c.created_at AT TIME ZONE $3::text, ${hourly ? `'YYYY-MM-DD"T"HH24'` : `'YYYY-MM-DD'`}) AS bucket,
            count(*)::integer AS count,
            count(reply.at)::integer AS answered,
            (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM reply.at - c.created_at)))::float8
              AS "medianFirstReplySeconds"
     FROM chat_conversations c
     LEFT JOIN LATERAL (
       SELECT min(m.created_at) AS at FROM chat_messages m WHERE m.conversation_id = c.id AND m.author = 'operator'
     ) AS reply ON true
     WHERE c.created_at >= $1::timestamptz AND c.created_at < $2::timestamptz
     GROUP BY 1 ORDER BY 1`,
    [span.start.toISOString(), span.end.toISOString(), timeZone],
  );
}
