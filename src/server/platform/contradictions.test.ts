import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '#common/site-config.ts';
import { configurationContradictions } from './contradictions.ts';

const site = (siteUrl: string, services: Partial<SiteConfig['services']> = {}): SiteConfig => ({
  ...DEFAULT_SITE_CONFIG,
  siteUrl,
  services: { ...DEFAULT_SITE_CONFIG.services, ...services },
});
const mailProvider = { name: 'Mail Inc.', country: 'DE', safeguard: null };

describe('configuration that contradicts itself', () => {
  it('is none when config.json and the environment agree', () => {
    expect(configurationContradictions(site('http://localhost:4000'), { PORT: 4000 })).toEqual([]);
    expect(
      configurationContradictions(site('https://example.com', { mail: mailProvider }), {
        PORT: 3001,
        SMTP_URL: 'smtp://mail.example.com',
      }),
    ).toEqual([]);
  });

  it('names a service in one place and not the other', () => {
    expect(configurationContradictions(site('https://example.com'), { PORT: 3000, SMTP_URL: 'smtp://x' })).toEqual([
      'SMTP_URL is set but config.json names no services.mail',
    ]);
    expect(configurationContradictions(site('https://example.com', { mail: mailProvider }), { PORT: 3000 })).toEqual([
      'config.json names services.mail but SMTP_URL is not set',
    ]);
  });

  it('names a public address on this machine at another port than the server’s', () => {
    expect(configurationContradictions(site('http://localhost:3000'), { PORT: 4000 })).toEqual([
      'siteUrl http://localhost:3000 is port 3000 of this machine, but PORT is 4000',
    ]);
    expect(configurationContradictions(site('http://127.0.0.1'), { PORT: 3000 })).toEqual([
      'siteUrl http://127.0.0.1 is port 80 of this machine, but PORT is 3000',
    ]);
    // Another host: a proxy in front answers there.
    expect(configurationContradictions(site('https://example.com'), { PORT: 3001 })).toEqual([]);
  });
});
