import { recipientMismatches } from '#common/legal-facts.ts';
import type { SiteConfig } from '#common/site-config.ts';
import type { Env } from './env.ts';

const THIS_MACHINE = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Configuration that contradicts itself, for one line at start: services config.json names (and
 * the privacy policy states) against those the environment configures, and a public address on
 * this machine at another port than the server's, where the links in mail would lead nowhere.
 */
export function configurationContradictions(
  site: SiteConfig,
  env: Pick<Env, 'PORT' | 'SMTP_URL' | 'POSTHOG_HOST' | 'OTEL_EXPORTER_OTLP_ENDPOINT'>,
): string[] {
  const found = recipientMismatches(site, {
    mail: Boolean(env.SMTP_URL),
    posthog: Boolean(env.POSTHOG_HOST),
    traces: Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT),
  });
  const address = new URL(site.siteUrl);
  const port = Number(address.port || (address.protocol === 'https:' ? 443 : 80));
  if (THIS_MACHINE.has(address.hostname) && port !== env.PORT) {
    found.push(`siteUrl ${site.siteUrl} is port ${port} of this machine, but PORT is ${env.PORT}`);
  }
  return found;
}
