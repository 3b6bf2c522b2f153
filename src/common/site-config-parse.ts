import { brandPalette } from './brand-palette.ts';
import { CONSOLE_SETTABLE, DEFAULT_SITE_CONFIG, SAFEGUARDS, type SiteConfig } from './site-config.ts';
import { z } from './zod-english.ts';

/**
 * Reads config.json as the company wrote it: missing fields take their defaults, a wrong type or
 * an impossible value stops the build with the field's path. Used by the build and the server; the
 * browser only ever sees the result.
 */

const text = z._default(z.string().check(z.trim(), z.maxLength(500)), '');
const lines = z._default(
  z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))).check(z.maxLength(10)),
  [],
);
/** A trimmed text that is empty or passes `test`, saying `message` when it does not. */
const emptyOr = (test: (value: string) => boolean, message: string, ...before: z.core.$ZodCheck<string>[]) =>
  z._default(
    z.string().check(
      z.trim(),
      ...before,
      z.refine((value) => value === '' || test(value), message),
    ),
    '',
  );
const country = emptyOr(
  (value) => /^[A-Z]{2}$/.test(value),
  'must be a two-letter country code such as DE',
  z.toUpperCase(),
);
const email = emptyOr((value) => /^[^\s@]+@[^\s@]+$/.test(value), 'must be an email address');
const url = emptyOr((value) => /^https?:\/\/\S+$/.test(value), 'must be an http(s) address');
const days = z._default(z.nullable(z.number().check(z.int(), z.minimum(0), z.maximum(36_500))), null);

const service = z.strictObject({ name: text, country, safeguard: z._default(z.nullable(z.enum(SAFEGUARDS)), null) });
const retainingService = z.extend(service, { retentionDays: days });
/** A part that may be left out or set to null: null either way (no such service, no such person). */
const orNull = <T extends z.ZodMiniType>(schema: T) => z._default(z.nullable(schema), null);

const company = z.strictObject({
  legalName: text,
  address: lines,
  country,
  email,
  phone: text,
  representatives: lines,
  register: text,
  vatId: text,
  contentResponsible: orNull(z.strictObject({ name: text, address: lines })),
  dataProtectionOfficer: orNull(z.strictObject({ name: text, email })),
  euRepresentative: orNull(z.strictObject({ name: text, address: lines, country, email })),
  supervisoryAuthority: z._default(z.strictObject({ name: text, url }), { name: '', url: '' }),
});

const SiteConfigSchema = z.strictObject({
  brand: z._default(
    z.partial(
      z.object({
        siteName: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
        domain: z.string().check(z.trim(), z.minLength(1), z.maxLength(253)),
      }),
    ),
    {},
  ),
  appearance: z.optional(
    z.strictObject({
      accent: orNull(
        z
          .string()
          .check(
            z.refine(
              (value) => brandPalette(value) !== null,
              'must be a #rrggbb colour links read in at 4.5:1 on white',
            ),
          ),
      ),
    }),
  ),
  pinned: z._default(z.array(z.enum(CONSOLE_SETTABLE)), []),
  siteUrl: z.optional(z.string().check(z.regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'must be an http(s) address'))),
  privacy: z._default(
    z.strictObject({ fingerprintAfterConsent: z._default(z.boolean({ error: 'must be true or false' }), false) }),
    { fingerprintAfterConsent: false },
  ),
  company: z._default(company, DEFAULT_SITE_CONFIG.company),
  services: z._default(
    z.strictObject({
      hosting: z._default(service, DEFAULT_SITE_CONFIG.services.hosting),
      database: orNull(service),
      mail: orNull(service),
      posthog: orNull(retainingService),
      traces: orNull(retainingService),
    }),
    DEFAULT_SITE_CONFIG.services,
  ),
  retention: z._default(z.strictObject({ serverLogDays: days, backupDays: days }), DEFAULT_SITE_CONFIG.retention),
  accounts: z._default(
    z.strictObject({
      minimumAge: z._default(
        z.number().check(z.int(), z.minimum(13), z.maximum(21)),
        DEFAULT_SITE_CONFIG.accounts.minimumAge,
      ),
    }),
    DEFAULT_SITE_CONFIG.accounts,
  ),
  contact: z._default(
    z.strictObject({
      // Subject ids become keys of the texts and values of a form field: short, plain, and no repeats.
      subjects: z._default(
        z
          .array(z.string().check(z.regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be lower-case letters, digits and dashes')))
          .check(
            z.minLength(1),
            z.maxLength(12),
            z.refine((ids) => new Set(ids).size === ids.length, 'must not repeat an id'),
          ),
        DEFAULT_SITE_CONFIG.contact.subjects,
      ),
    }),
    DEFAULT_SITE_CONFIG.contact,
  ),
});

/** What is wrong with a configuration in config.json's shape, by field (`company.email`); empty when nothing. */
export function siteConfigIssues(file: unknown): { path: string; message: string }[] {
  const result = SiteConfigSchema.safeParse(file);
  return result.success
    ? []
    : result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

/**
 * The configuration from the parsed JSON of config.json; throws naming every bad field. Without a
 * `siteUrl` there, the public address is `defaultSiteUrl` (the server passes its own address).
 */
export function parseSiteConfig(file: unknown, defaultSiteUrl = DEFAULT_SITE_CONFIG.siteUrl): SiteConfig {
  if (typeof file === 'object' && file !== null && 'operator' in file) {
    throw new Error(
      'config.json: "operator" is now called "company" (the legal facts of who runs the site); rename the key',
    );
  }
  const result = SiteConfigSchema.safeParse(file);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(top level)'} ${issue.message}`);
    throw new Error(`config.json: ${problems.join('; ')}`);
  }
  const { appearance, ...config } = result.data;
  return {
    ...config,
    ...(appearance ? { appearance: { accent: appearance.accent, logo: null } } : {}),
    brand: { ...DEFAULT_SITE_CONFIG.brand, ...config.brand },
    siteUrl: (config.siteUrl ?? defaultSiteUrl).replace(/\/+$/, ''),
  };
}
