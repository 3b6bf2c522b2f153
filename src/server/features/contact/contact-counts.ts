import type { Queryable } from '#server/platform/db/database.ts';

/**
 * Messages sent through the contact form per hour or day of the site's time zone, between two
 * instants; spam is left out. For the analytics page (decision 180).
 */
export async function contactMessagesPer(
  db: Queryable,
  span: { start: Date; end: Date },
  timeZone: string,
  hourly: boolean,
): Promise<{ bucket: string; count: number }[]> {
  return db.query(
    `SELECT to_char(created_at AT TIME ZONE $3::text, ${hourly ? `'YYYY-MM-DD"T"HH24'` : `'YYYY-MM-DD'`}) AS bucket,
            count(*)::integer AS count
     FROM contact_messages
     WHERE created_at >= $1::timestamptz AND created_at < $2::timestamptz AND status <> 'spam'
     GROUP BY 1 ORDER BY 1`,
    [span.start.toISOString(), span.end.toISOString(), timeZone],
  );
}
