import type { Service, SiteConfig } from './site-config.ts';

/**
 * When the legal pages (privacy policy, terms, cookie policy) last changed, as an ISO date. Each
 * page shows it in its language's own format; change it whenever their texts or the legal facts in
 * config.json change.
 */
export const LEGAL_TEXTS_UPDATED = '2026-11-26';

/** How many days before a change of the terms account holders are told about it by email. */
export const TERMS_NOTICE_DAYS = 30;

/** The European Economic Area: the EU's 27 members, Iceland, Liechtenstein and Norway. */
const EEA = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO'.split(' '),
);

export const inEea = (country: string) => EEA.has(country.toUpperCase());

export type RecipientRole = 'hosting' | 'database' | 'mail' | 'posthog' | 'traces';

/** Who receives visitors' data on the company's behalf, in the order the privacy policy lists them. */
export function recipients(site: SiteConfig): { role: RecipientRole; service: Service }[] {
  const { hosting, database, mail, posthog, traces } = site.services;
  const all: [RecipientRole, Service | null][] = [
    ['hosting', hosting],
    ['database', database],
    ['mail', mail],
    ['posthog', posthog],
    ['traces', traces],
  ];
  return all.flatMap(([role, service]) => (service ? [{ role, service }] : []));
}

/** Recipients that process data outside the EU/EEA (or whose country is not given, to be safe). */
export function transfers(site: SiteConfig): { role: RecipientRole; service: Service }[] {
  return recipients(site).filter(({ service }) => !inEea(service.country));
}

/**
 * The facts the legal pages need and config.json leaves out, as config paths. The pages show a
 * marked placeholder for each; the build lists them so the company sees what is left to fill in.
 */
export function missingLegalFacts(site: SiteConfig): string[] {
  const { company, retention } = site;
  const missing: string[] = [];
  const need = (path: string, value: unknown) => {
    if (value === '' || value === null || (Array.isArray(value) && value.length === 0)) missing.push(path);
  };
  need('company.legalName', company.legalName);
  need('company.address', company.address);
  need('company.country', company.country);
  need('company.email', company.email);
  need('company.supervisoryAuthority.name', company.supervisoryAuthority.name);
  need('retention.serverLogDays', retention.serverLogDays);
  need('retention.backupDays', retention.backupDays);
  for (const { role, service } of recipients(site)) {
    need(`services.${role}.name`, service.name);
    need(`services.${role}.country`, service.country);
    if (service.country !== '' && !inEea(service.country)) need(`services.${role}.safeguard`, service.safeguard);
  }
  for (const role of ['posthog', 'traces'] as const) {
    const service = site.services[role];
    if (service) need(`services.${role}.retentionDays`, service.retentionDays);
  }
  return missing;
}

/**
 * Where the legal pages and the server's environment disagree about who receives data: a policy
 * that names no PostHog while events go to one is wrong, and so is one that names a provider the
 * server does not use. The server checks this at start with what its environment configures.
 */
export function recipientMismatches(
  site: SiteConfig,
  configured: { mail: boolean; posthog: boolean; traces: boolean },
): string[] {
  const pairs = [
    ['mail', 'SMTP_URL', configured.mail],
    ['posthog', 'POSTHOG_HOST', configured.posthog],
    ['traces', 'OTEL_EXPORTER_OTLP_ENDPOINT', configured.traces],
  ] as const;
  return pairs.flatMap(([role, variable, isSet]) => {
    const named = site.services[role] !== null;
    if (isSet && !named) return [`${variable} is set but config.json names no services.${role}`];
    if (!isSet && named) return [`config.json names services.${role} but ${variable} is not set`];
    return [];
  });
}
