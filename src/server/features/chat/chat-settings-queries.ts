import type { ChatSettings, HoursInterval, OperatorAlerts } from '#common/chat-hours.ts';
import type { Queryable } from '#server/platform/db/database.ts';

interface SettingsRow {
  hoursEnabled: boolean;
  timeZone: string;
  weekly: HoursInterval[][] | string;
  holidays: string[];
  alertAfterSeconds: number;
}

/** The team's chat settings (migration 070 makes their one row). */
export async function readChatSettings(db: Queryable): Promise<ChatSettings> {
  const [row] = await db.query<SettingsRow>(
    `SELECT hours_enabled AS "hoursEnabled", time_zone AS "timeZone", weekly_hours AS weekly, holidays,
       alert_after_seconds AS "alertAfterSeconds" FROM chat_settings`,
  );
  if (!row) throw new Error('The chat settings row is missing');
  return {
    hoursEnabled: row.hoursEnabled,
    timeZone: row.timeZone,
    weekly: typeof row.weekly === 'string' ? (JSON.parse(row.weekly) as HoursInterval[][]) : row.weekly,
    holidays: [...row.holidays].sort(),
    alertAfterMinutes: Math.round(row.alertAfterSeconds / 60),
  };
}

export async function saveChatSettings(db: Queryable, settings: ChatSettings): Promise<void> {
  await db.query(
    `UPDATE chat_settings SET hours_enabled = $1, time_zone = $2, weekly_hours = $3::jsonb, holidays = $4::text[],
       alert_after_seconds = $5, updated_at = now()`,
    [
      settings.hoursEnabled,
      settings.timeZone,
      JSON.stringify(settings.weekly),
      [...new Set(settings.holidays)].sort(),
      settings.alertAfterMinutes * 60,
    ],
  );
}

/** First replies counted before a typical reply time is shown: fewer say little. */
export const MIN_REPLIES_FOR_TYPICAL = 5;

/**
 * The median time to the team's first reply, over conversations whose visitor first wrote in the
 * last 7 days and got an answer; null with fewer than MIN_REPLIES_FOR_TYPICAL of them.
 */
export async function typicalReplySeconds(db: Queryable): Promise<number | null> {
  const [row] = await db.query<{ median: number | null; answered: number }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM r.at - v.at))::double precision AS median,
       count(*)::integer AS answered
     FROM (SELECT conversation_id, min(created_at) AS at FROM chat_messages
           WHERE author = 'visitor' AND created_at > statement_timestamp() - interval '7 days'
           GROUP BY conversation_id) v
     CROSS JOIN LATERAL (SELECT min(o.created_at) AS at FROM chat_messages o
           WHERE o.conversation_id = v.conversation_id AND o.author = 'operator' AND o.created_at >= v.at) r
     WHERE r.at IS NOT NULL`,
  );
  if (!row || row.answered < MIN_REPLIES_FOR_TYPICAL || row.median === null) return null;
  return Math.round(Number(row.median));
}

export async function readOperatorAlerts(db: Queryable, accountId: string): Promise<OperatorAlerts> {
  const [row] = await db.query<OperatorAlerts>('SELECT sound FROM chat_operator_settings WHERE account_id = $1', [
    accountId,
  ]);
  return { sound: row?.sound ?? false };
}

export async function saveOperatorAlerts(db: Queryable, accountId: string, alerts: OperatorAlerts): Promise<void> {
  await db.query(
    `INSERT INTO chat_operator_settings (account_id, sound) VALUES ($1, $2)
     ON CONFLICT (account_id) DO UPDATE SET sound = excluded.sound`,
    [accountId, alerts.sound],
  );
}
