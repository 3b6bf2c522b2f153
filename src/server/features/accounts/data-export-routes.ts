import { getCookie } from 'hono/cookie';
import { ACCOUNT_SETTINGS_API, DATA_COPIES_PER_DAY, type DataExportAnswer } from '#common/account-settings-api.ts';
import { NoFieldsSchema } from '#common/fields.ts';
import { DEFAULT_LANGUAGE, isLanguage } from '#common/languages.ts';
import { storageEntry } from '#common/storage.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody } from '#server/http/json-body.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import type { AccountDeps } from './account-deps.ts';
import { readAccountData } from './data-export.ts';
import { dataExportHtml } from './data-export-html.ts';
import { requireSession } from './sessions.ts';

const CONSENT_COOKIE = storageEntry('consent');

/**
 * Counts one copy for the account on the current day (UTC) and says how many that makes, with the
 * seconds left until the next day. Counted on the account itself: a rate-limit counter lives two
 * hours at most (the privacy policy says so), too short for a daily limit. One statement, so
 * concurrent requests cannot both slip through.
 */
async function countCopy(db: Queryable, accountId: string) {
  const [row] = await db.query<{ copies: number; secondsLeft: number }>(
    `UPDATE accounts SET
       data_exports = CASE WHEN data_export_day = (statement_timestamp() AT TIME ZONE 'UTC')::date
                      THEN data_exports + 1 ELSE 1 END,
       data_export_day = (statement_timestamp() AT TIME ZONE 'UTC')::date
     WHERE id = $1
     RETURNING data_exports AS copies,
       ceil(extract(epoch FROM (date_trunc('day', statement_timestamp() AT TIME ZONE 'UTC') + interval '1 day')
         - statement_timestamp() AT TIME ZONE 'UTC'))::integer AS "secondsLeft"`,
    [accountId],
  );
  return row ?? null;
}

/** A copy of everything the site holds about the account, as data and as a page to read (Art. 15 and 20). */
export function dataExportRoutes(deps: AccountDeps) {
  const { db } = deps;
  const routes = newRoutes();

  routes.post(
    ACCOUNT_SETTINGS_API.dataExport,
    requireSession(db, deps.settings.sessionIdleSeconds),
    jsonBody(NoFieldsSchema),
    async (c) => {
      const { accountId } = c.get('session');
      const count = await countCopy(db, accountId);
      if (!count) throw new ApiError(401, 'UNAUTHORIZED');
      if (count.copies > DATA_COPIES_PER_DAY) {
        throw new ApiError(429, 'TOO_MANY_REQUESTS', { headers: { 'Retry-After': String(count.secondsLeft) } });
      }
      const data = await readAccountData(db, accountId, getCookie(c, CONSENT_COOKIE.name));
      if (!data) throw new ApiError(401, 'UNAUTHORIZED');
      const exportedAt = new Date();
      const stored = String(data.profile.language);
      const language = isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
      const site = { name: deps.site.brand.siteName, address: deps.site.siteUrl };
      return c.json({
        fileName: `${deps.site.brand.domain}-my-data-${exportedAt.toISOString().slice(0, 10)}`,
        data: {
          exportedAt,
          site,
          profile: data.profile,
          consent: data.consent,
          ...data.sections,
          mailQueued: data.mail.queued,
          mailKept: data.mail.kept,
        },
        html: dataExportHtml(deps.site, deps.texts, language, data, exportedAt),
      } satisfies DataExportAnswer);
    },
  );

  return routes;
}
