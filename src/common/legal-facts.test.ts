import { describe, expect, it } from 'vitest';
import { inEea, missingLegalFacts, recipientMismatches, recipients, transfers } from './legal-facts.ts';
import { parseSiteConfig } from './site-config-parse.ts';

const complete = parseSiteConfig({
  company: {
    legalName: 'Acme GmbH',
    address: ['Hauptstraße 1', '10115 Berlin'],
    country: 'DE',
    email: 'privacy@acme.example',
    supervisoryAuthority: {
      name: 'Berliner Beauftragte für Datenschutz und Informationsfreiheit',
      url: 'https://www.datenschutz-berlin.de',
    },
  },
  services: {
    hosting: { name: 'Host AG', country: 'DE' },
    mail: { name: 'Mail Inc.', country: 'US', safeguard: 'scc' },
    posthog: { name: 'PostHog Inc.', country: 'DE', retentionDays: 365 },
  },
  retention: { serverLogDays: 14, backupDays: 30 },
});

describe('legal facts', () => {
  it('knows the European Economic Area', () => {
    expect(['DE', 'fr', 'NO', 'IS', 'LI'].every(inEea)).toBe(true);
    expect(['US', 'CH', 'GB', 'TH', ''].some(inEea)).toBe(false);
  });

  it('lists exactly the recipients configured, and the transfers among them', () => {
    expect(recipients(complete).map((r) => r.role)).toEqual(['hosting', 'mail', 'posthog']);
    expect(transfers(complete).map((r) => r.role)).toEqual(['mail']);
  });

  it('finds nothing missing in a complete configuration, and every gap in the default one', () => {
    expect(missingLegalFacts(complete)).toEqual([]);
    expect(missingLegalFacts(parseSiteConfig({}))).toEqual([
      'company.legalName',
      'company.address',
      'company.country',
      'company.email',
      'company.supervisoryAuthority.name',
      'retention.serverLogDays',
      'retention.backupDays',
      'services.hosting.name',
      'services.hosting.country',
    ]);
    const noSafeguard = parseSiteConfig({ services: { hosting: { name: 'Host Inc.', country: 'US' } } });
    expect(missingLegalFacts(noSafeguard)).toContain('services.hosting.safeguard');
  });

  it('tells where the policy and the environment disagree about recipients', () => {
    expect(recipientMismatches(complete, { mail: true, posthog: true, traces: false })).toEqual([]);
    expect(recipientMismatches(complete, { mail: false, posthog: true, traces: true })).toEqual([
      'config.json names services.mail but SMTP_URL is not set',
      'OTEL_EXPORTER_OTLP_ENDPOINT is set but config.json names no services.traces',
    ]);
  });
});
