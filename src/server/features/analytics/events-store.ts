import { deleteCounting, type Queryable } from '#server/platform/db/database.ts';
import type { AgentSummary } from '#server/platform/user-agent.ts';
import type { AnalyticsEvent } from './posthog-payload.ts';

const NO_AGENT: AgentSummary = { device: null, browser: null, os: null };

/**
 * Stores events in one statement; an event whose uuid is already stored is skipped. `agent` is what
 * the sending browser's user agent says and `country` where its address is (one batch comes from
 * one browser).
 */
export async function storeEvents(
  db: Queryable,
  events: AnalyticsEvent[],
  agent = NO_AGENT,
  country: string | null = null,
): Promise<void> {
  if (events.length === 0) return;
  await db.query(
    `INSERT INTO analytics_events (uuid, event, distinct_id, path, language, occurred_at, referrer_host,
       browser_language, utm_source, utm_campaign, device, browser, os, country)
     SELECT *, $11::text, $12::text, $13::text, $14::text FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
       $6::timestamptz[], $7::text[], $8::text[], $9::text[], $10::text[])
     ON CONFLICT (uuid) DO NOTHING`,
    [
      events.map((e) => e.uuid),
      events.map((e) => e.event),
      events.map((e) => e.distinctId),
      events.map((e) => e.path),
      events.map((e) => e.language),
      events.map((e) => e.occurredAt.toISOString()),
      events.map((e) => e.referrerHost ?? null),
      events.map((e) => e.browserLanguage ?? null),
      events.map((e) => e.utmSource ?? null),
      events.map((e) => e.utmCampaign ?? null),
      agent.device,
      agent.browser,
      agent.os,
      country,
    ],
  );
}

export interface ReportRow {
  day: string;
  language: string;
  path: string;
  views: number;
  visitors: number;
}

/** Page views and unique visitors per day (UTC), language and page, newest day first. */
export async function pageViewReport(db: Queryable, sinceDays: number): Promise<ReportRow[]> {
  const rows = await db.query<{
    day: Date;
    language: string | null;
    path: string | null;
    views: number;
    visitors: number;
  }>(
    `SELECT (occurred_at AT TIME ZONE 'UTC')::date AS day, language, path,
            count(*)::integer AS views, count(DISTINCT distinct_id)::integer AS visitors
     FROM analytics_events
     WHERE event = '$pageview' AND occurred_at >= statement_timestamp() - $1::integer * interval '1 day'
     GROUP BY 1, 2, 3
     ORDER BY 1 DESC, 2, 3`,
    [sinceDays],
  );
  return rows.map((row) => ({
    day: row.day.toISOString().slice(0, 10),
    language: row.language ?? '-',
    path: row.path ?? '-',
    views: row.views,
    visitors: row.visitors,
  }));
}

/** Deletes events older than `days`; returns how many. */
export async function pruneEvents(db: Queryable, days: number): Promise<number> {
  return deleteCounting(
    db,
    `DELETE FROM analytics_events WHERE occurred_at < statement_timestamp() - $1::integer * interval '1 day'`,
    [days],
  );
}
