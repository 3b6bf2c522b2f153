import { z } from 'zod';
import { brandPalette } from './brand-palette.ts';
import { CONSOLE_SETTABLE, DEFAULT_SITE_CONFIG, SAFEGUARDS, type SiteConfig } from './site-config.ts';

/**
 * Reads config.json as the company wrote it: missing fields take their defaults, a wrong type or
 * an impossible value stops the build with the field's path. Used by the build and the server; the
 * browser only ever sees the result.
 */

const text = z.string().trim().max(500).default('');
const lines = z.array(z.string().trim().min(1).max(200)).max(10).default([]);
const country = z
  .string()
  .trim()
  .toUpperCase()
  .refine((value) => value === '' || /^[A-Z]{2}$/.test(value), 'must be a two-letter country code such as DE')
  .default('');
const email = z
  .string()
  .trim()
  .refine((value) => value === '' || /^[^\s@]+@[^\s@]+$/.test(value), 'must be an email address')
  .default('');
const url = z
  .string()
  .trim()
  .refine((value) => value === '' || /^https?:\/\/\S+$/.test(value), 'must be an http(s) address')
  .default('');
const days = z.number().int().min(0).max(36_500).nullable().default(null);

const service = z.object({ name: text, country, safeguard: z.enum(SAFEGUARDS).nullable().default(null) }).strict();
const retainingService = service.extend({ retentionDays: days }).strict();

const company = z
  .object({
    legalName: text,
    address: lines,
    country,
    email,
    phone: text,
    representatives: lines,
    register: text,
    vatId: text,
    contentResponsible: z.object({ name: text, address: lines }).strict().nullable().default(null),
    dataProtectionOfficer: z.object({ name: text, email }).strict().nullable().default(null),
    euRepresentative: z.object({ name: text, address: lines, country, email }).strict().nullable().default(null),
    supervisoryAuthority: z.object({ name: text, url }).strict().default({ name: '', url: '' }),
  })
  .strict();

const SiteConfigSchema = z
  .object({
    brand: z
      .object({ siteName: z.string().trim().min(1).max(100), domain: z.string().trim().min(1).max(253) })
      .partial()
      .default({}),
    appearance: z
      .object({
        accent: z
          .string()
          .refine((value) => brandPalette(value) !== null, 'must be a #rrggbb colour links read in at 4.5:1 on white')
          .nullable()
          .default(null),
      })
      .strict()
      .optional(),
    pinned: z.array(z.enum(CONSOLE_SETTABLE)).default([]),
    siteUrl: z
      .string()
      .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'must be an http(s) address')
      .optional(),
    privacy: z
      .object({ fingerprintAfterConsent: z.boolean({ error: 'must be true or false' }).default(false) })
      .strict()
      .default({ fingerprintAfterConsent: false }),
    company: company.default(DEFAULT_SITE_CONFIG.company),
    services: z
      .object({
        hosting: service.default(DEFAULT_SITE_CONFIG.services.hosting),
        database: service.nullable().default(null),
        mail: service.nullable().default(null),
        posthog: retainingService.nullable().default(null),
        traces: retainingService.nullable().default(null),
      })
      .strict()
      .default(DEFAULT_SITE_CONFIG.services),
    retention: z.object({ serverLogDays: days, backupDays: days }).strict().default(DEFAULT_SITE_CONFIG.retention),
    accounts: z
      .object({ minimumAge: z.number().int().min(13).max(21).default(DEFAULT_SITE_CONFIG.accounts.minimumAge) })
      .strict()
      .default(DEFAULT_SITE_CONFIG.accounts),
    contact: z
      .object({
        // Subject ids become keys of the texts and values of a form field: short, plain, and no repeats.
        subjects: z
          .array(z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be lower-case letters, digits and dashes'))
          .min(1)
          .max(12)
          .refine((ids) => new Set(ids).size === ids.length, 'must not repeat an id')
          .default(DEFAULT_SITE_CONFIG.contact.subjects),
      })
      .strict()
      .default(DEFAULT_SITE_CONFIG.contact),
  })
  .strict();

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
