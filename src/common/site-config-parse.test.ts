import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from './site-config.ts';
import { parseSiteConfig } from './site-config-parse.ts';

describe('parseSiteConfig', () => {
  it('fills what the file leaves out with the defaults', () => {
    expect(parseSiteConfig({})).toEqual(DEFAULT_SITE_CONFIG);
    expect(parseSiteConfig({ brand: { siteName: 'Acme' }, siteUrl: 'https://acme.example/' })).toMatchObject({
      brand: { siteName: 'Acme', domain: 'localhost' },
      siteUrl: 'https://acme.example',
    });
  });

  it('reads the legal facts, normalising country codes', () => {
    const site = parseSiteConfig({
      company: { legalName: ' Acme GmbH ', address: ['Hauptstraße 1', '10115 Berlin'], country: 'de' },
      services: {
        hosting: { name: 'Host AG', country: 'de' },
        posthog: { name: 'PostHog Inc.', country: 'us', safeguard: 'adequacy', retentionDays: 365 },
      },
      retention: { serverLogDays: 14, backupDays: 30 },
    });
    expect(site.company).toMatchObject({ legalName: 'Acme GmbH', country: 'DE', email: '' });
    expect(site.services.hosting).toEqual({ name: 'Host AG', country: 'DE', safeguard: null });
    expect(site.services.posthog).toEqual({
      name: 'PostHog Inc.',
      country: 'US',
      safeguard: 'adequacy',
      retentionDays: 365,
    });
    expect(site.services.mail).toBeNull();
    expect(site.retention).toEqual({ serverLogDays: 14, backupDays: 30 });
  });

  it.each([
    [{ privacy: { fingerprintAfterConsent: 'yes' } }, 'privacy.fingerprintAfterConsent must be true or false'],
    [{ company: { country: 'Germany' } }, 'company.country must be a two-letter country code'],
    [{ company: { email: 'not an address' } }, 'company.email must be an email address'],
    [{ services: { mail: { name: 'Mailer', country: 'DE', safeguard: 'trust us' } } }, 'services.mail.safeguard'],
    [{ retention: { backupDays: '30' } }, 'retention.backupDays'],
    [{ accounts: { minimumAge: 9 } }, 'accounts.minimumAge'],
    [{ company: { legalNmae: 'Typo GmbH' } }, 'company'],
    [{ operator: { legalName: 'Old GmbH' } }, '"operator" is now called "company"'],
  ])('stops on %j, naming the field', (file, message) => {
    expect(() => parseSiteConfig(file)).toThrow(message);
  });
});
