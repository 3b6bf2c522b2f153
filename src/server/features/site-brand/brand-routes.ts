import { brandPalette } from '#common/brand-palette.ts';
import { LANGUAGES } from '#common/languages.ts';
import { missingLegalFacts } from '#common/legal-facts.ts';
import { BRAND_API, type BrandAnswer } from '#common/site-brand.ts';
import { CONSOLE_SETTABLE, type ConsoleSettable } from '#common/site-config.ts';
import { siteConfigIssues } from '#common/site-config-parse.ts';
import { z } from '#common/zod.ts';
import type { Deps } from '#server/deps.ts';
import { requireStaff } from '#server/features/accounts/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody } from '#server/http/json-body.ts';
import { readBrand, saveBrand } from './brand-queries.ts';
import { checkLogo } from './logo.ts';
import { mergeSettings } from './site-brand.ts';

const section = z.optional(z.nullable(z.record(z.string(), z.unknown())));
/** A change: each part in config.json's shape (checked whole below), null to put config.json's back. */
const BrandChangeSchema = z.strictObject({
  brand: section,
  appearance: section,
  company: section,
  services: section,
  retention: section,
  logoAlt: z.optional(z.partialRecord(z.enum(LANGUAGES), z.string().check(z.trim(), z.maxLength(200)))),
});

/**
 * The brand in the console, for admins only (an editor changes texts, never the legal facts): read
 * what is in force, change parts of it, upload or remove the logo. Every change is checked as
 * config.json is at start, stored, and served by this instance before the answer (every other
 * instance within moments: SiteBrand).
 */
export function brandRoutes(deps: Deps) {
  const { db, siteBrand } = deps;
  const routes = newRoutes();
  const admins = requireStaff(deps, ['admin']);
  const pinned = (): ConsoleSettable[] => siteBrand.initial.pinned ?? [];

  const answer = async (): Promise<BrandAnswer> => {
    const row = await readBrand(db);
    const { brand, company, services, retention, appearance } = siteBrand.site;
    return {
      config: { brand, company, services, retention, appearance: appearance ?? { accent: null, logo: null } },
      settings: row.settings,
      pinned: pinned(),
      missing: missingLegalFacts(siteBrand.site),
    };
  };

  routes.get(BRAND_API.brand, admins, async (c) => {
    await siteBrand.refresh();
    return c.json(await answer());
  });

  routes.put(BRAND_API.brand, admins, jsonBody(BrandChangeSchema), async (c) => {
    const change = c.req.valid('json');
    const row = await readBrand(db);
    const settings: Record<string, unknown> = { ...row.settings };
    for (const part of CONSOLE_SETTABLE) {
      if (!(part in change)) continue;
      if (pinned().includes(part))
        throw new ApiError(409, 'PINNED_BY_CONFIG', { fields: { [part]: 'PINNED_BY_CONFIG' } });
      if (change[part] === null) delete settings[part];
      else settings[part] = change[part];
    }
    const accent = (settings.appearance as { accent?: unknown } | undefined)?.accent;
    if (typeof accent === 'string' && !brandPalette(accent)) {
      throw new ApiError(400, 'BRAND_COLOUR_CONTRAST', { fields: { 'appearance.accent': 'BRAND_COLOUR_CONTRAST' } });
    }
    const { appearance, ...start } = siteBrand.initial;
    const file = mergeSettings(
      { ...start, ...(appearance ? { appearance: { accent: appearance.accent } } : {}) },
      settings,
    );
    const issues = siteConfigIssues(file);
    if (issues.length > 0) {
      throw new ApiError(400, 'VALIDATION_ERROR', {
        fields: Object.fromEntries(issues.map((issue) => [issue.path || '_', 'INVALID_REQUEST' as const])),
      });
    }
    await db.transaction((tx) => saveBrand(tx, { settings, logoAlt: change.logoAlt }, c.var.staff.accountId));
    await siteBrand.refresh();
    return c.json(await answer());
  });

  routes.put(BRAND_API.logo, admins, async (c) => {
    if (pinned().includes('appearance')) throw new ApiError(409, 'PINNED_BY_CONFIG');
    const body = new Uint8Array(await c.req.arrayBuffer());
    const checked = checkLogo(c.req.header('content-type') ?? '', body);
    if ('problem' in checked) throw new ApiError(400, checked.problem);
    await db.transaction((tx) => saveBrand(tx, { logo: { type: checked.type, body } }, c.var.staff.accountId));
    await siteBrand.refresh();
    return c.json(await answer());
  });

  routes.delete(BRAND_API.logo, admins, async (c) => {
    if (pinned().includes('appearance')) throw new ApiError(409, 'PINNED_BY_CONFIG');
    await db.transaction((tx) => saveBrand(tx, { logo: null }, c.var.staff.accountId));
    await siteBrand.refresh();
    return c.json(await answer());
  });

  return routes;
}
