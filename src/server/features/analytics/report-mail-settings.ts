import {
  ANALYTICS_MAIL_API,
  type AnalyticsMailSettings,
  DEFAULT_ANALYTICS_MAIL,
  type MailReport,
} from '#common/analytics-mail.ts';
import { AnalyticsMailSettingsSchema } from '#common/analytics-mail-schemas.ts';
import type { Deps } from '#server/deps.ts';
import { requireStaff } from '#server/features/accounts/index.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody } from '#server/http/json-body.ts';
import type { Queryable } from '#server/platform/db/database.ts';

export async function readMailSettings(db: Queryable, accountId: string): Promise<AnalyticsMailSettings> {
  const [row] = await db.query<{ report: MailReport; alertMultiple: number | null }>(
    `SELECT report, alert_multiple::float8 AS "alertMultiple" FROM analytics_mail_settings WHERE account_id = $1`,
    [accountId],
  );
  return row ?? DEFAULT_ANALYTICS_MAIL;
}

async function saveMailSettings(db: Queryable, accountId: string, settings: AnalyticsMailSettings): Promise<void> {
  await db.query(
    `INSERT INTO analytics_mail_settings (account_id, report, alert_multiple) VALUES ($1, $2, $3)
     ON CONFLICT (account_id) DO UPDATE
       SET report = excluded.report, alert_multiple = excluded.alert_multiple, updated_at = now()`,
    [accountId, settings.report, settings.alertMultiple],
  );
}

/**
 * Each admin's own choice of analytics mail (decision 210). Admins only: the report and the alert
 * tell the site's whole traffic, and choosing who of the team gets them is the admins' call, as the
 * staff list is.
 */
export function reportMailSettingsRoutes(deps: Deps) {
  const routes = newRoutes();
  const admins = requireStaff(deps, ['admin']);
  routes.get(ANALYTICS_MAIL_API.settings, admins, async (c) =>
    c.json((await readMailSettings(deps.db, c.var.staff.accountId)) satisfies AnalyticsMailSettings),
  );
  routes.post(ANALYTICS_MAIL_API.settings, admins, jsonBody(AnalyticsMailSettingsSchema), async (c) => {
    await saveMailSettings(deps.db, c.var.staff.accountId, c.req.valid('json'));
    return c.json((await readMailSettings(deps.db, c.var.staff.accountId)) satisfies AnalyticsMailSettings);
  });
  return routes;
}
