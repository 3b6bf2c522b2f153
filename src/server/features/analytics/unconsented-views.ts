import { UNCONSENTED_VIEW_PATH } from '#common/analytics.ts';
import { isLanguage } from '#common/languages.ts';
import { z } from '#common/zod.ts';
import type { Deps } from '#server/deps.ts';
import { readChatSettings } from '#server/features/chat/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody } from '#server/http/json-body.ts';
import type { Queryable } from '#server/platform/db/database.ts';

/**
 * A browser counts a page as it leaves it, a few times a minute; many visitors can share one
 * address. Counts beyond the limit are dropped without an error: the browser does not wait for
 * the answer, and an error would only show in its console.
 */
const RATE_LIMIT = { hits: 300, windowSeconds: 60 };

const UnconsentedViewSchema = z.object({
  path: z.string().check(z.maxLength(256), z.regex(/^\/[^\s?#]*$/)),
});

/**
 * Adds one to today's count (in the site's time zone) of the page and its language. Nothing about
 * the visitor is read or kept: not the address, the user agent or any cookie.
 */
export async function countUnconsentedView(db: Queryable, path: string, now = new Date()): Promise<void> {
  const { timeZone } = await readChatSettings(db);
  const language = path.split('/')[1];
  await db.query(
    `INSERT INTO analytics_unconsented_views (day, path, language, views)
     VALUES ((($1::timestamptz) AT TIME ZONE $2::text)::date, $3, $4, 1)
     ON CONFLICT (day, path, language) DO UPDATE SET views = analytics_unconsented_views.views + 1`,
    [now.toISOString(), timeZone, path, isLanguage(language) ? language : ''],
  );
}

/** Deletes the counts of days older than `days`, as the events are (decision 023). */
export async function pruneUnconsentedViews(db: Queryable, days: number): Promise<void> {
  await db.query(`DELETE FROM analytics_unconsented_views WHERE day < current_date - $1::integer`, [days]);
}

/** The count of a page view served without consent (decision 180). */
export function unconsentedViewRoutes(deps: Deps) {
  const routes = newRoutes();
  routes.post(UNCONSENTED_VIEW_PATH, jsonBody(UnconsentedViewSchema), async (c) => {
    try {
      await deps.limiter.enforce([{ name: 'unconsented-view', limit: RATE_LIMIT, subject: c.var.clientAddress }]);
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) return c.body(null, 204);
      throw error;
    }
    await countUnconsentedView(deps.db, c.req.valid('json').path);
    return c.body(null, 204);
  });
  return routes;
}
