import { describe, expect, it } from 'vitest';
import { readEnv } from './env.ts';

describe('readEnv', () => {
  it('has defaults that need no configuration', () => {
    const env = readEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toMatch(/\/data$/);
  });

  it('takes PORT and DATA_DIR from the environment', () => {
    const env = readEnv({ PORT: '8080', DATA_DIR: '/tmp/site-data' });
    expect(env.PORT).toBe(8080);
    expect(env.DATA_DIR).toBe('/tmp/site-data');
  });

  it.each([['abc'], ['0'], ['70000'], ['3.5']])('stops on PORT=%s, naming the variable', (port) => {
    expect(() => readEnv({ PORT: port })).toThrow(/PORT/);
  });

  it('says what the limit is, in English, where a rule has no message of its own', () => {
    expect(() => readEnv({ PORT: '70000' })).toThrow(/PORT: Too big: .*65535/);
  });
});

describe('upstreams', () => {
  it('are all optional', () => {
    const env = readEnv({});
    expect(env.POSTHOG_HOST).toBeUndefined();
    expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(env.UPSTREAM_TIMEOUT_MS).toBe(5_000);
    expect(env.FINGERPRINT_RATE_LIMIT).toBe(60);
  });

  it('takes PostHog and the collector as http(s) URLs', () => {
    const env = readEnv({
      POSTHOG_HOST: 'https://eu.i.posthog.com',
      POSTHOG_KEY: 'phc_abc',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
    });
    expect(env.POSTHOG_HOST).toBe('https://eu.i.posthog.com');
    expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://collector:4318');
  });

  it.each([
    [{ POSTHOG_HOST: 'ftp://posthog', POSTHOG_KEY: 'k' }, /POSTHOG_HOST/],
    [{ POSTHOG_HOST: 'https://eu.i.posthog.com' }, /POSTHOG_KEY/],
    [{ POSTHOG_KEY: 'phc_abc' }, /POSTHOG_KEY/],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /OTEL_EXPORTER_OTLP_ENDPOINT/],
    [{ UPSTREAM_TIMEOUT_MS: '0' }, /UPSTREAM_TIMEOUT_MS/],
    [{ FINGERPRINT_RATE_LIMIT: 'many' }, /FINGERPRINT_RATE_LIMIT/],
  ])('stops on %o, naming the variable', (source, name) => {
    expect(() => readEnv(source)).toThrow(name);
  });
});

describe('account settings', () => {
  it('keep mail in the outbox and sessions for a week unless told otherwise', () => {
    const env = readEnv({});
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.SESSION_IDLE_SECONDS).toBe(7 * 24 * 60 * 60);
  });

  it('take an SMTP server, a sender and an idle timeout', () => {
    const env = readEnv({
      SMTP_URL: 'smtps://user:secret@mail.example.com:465',
      MAIL_FROM: 'Example <hello@example.com>',
      SESSION_IDLE_SECONDS: '3600',
    });
    expect(env.SMTP_URL).toBe('smtps://user:secret@mail.example.com:465');
    expect(env.MAIL_FROM).toBe('Example <hello@example.com>');
    expect(env.SESSION_IDLE_SECONDS).toBe(3600);
  });

  it.each([
    ['SMTP_URL', 'mail.example.com'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['SESSION_IDLE_SECONDS', '0'],
    ['SESSION_IDLE_SECONDS', String(31 * 24 * 60 * 60)],
    ['SESSION_IDLE_SECONDS', 'a week'],
  ])('stops on %s=%s, naming the variable', (name, value) => {
    expect(() => readEnv({ [name]: value })).toThrow(new RegExp(name));
  });
});

describe('OpenID Connect providers', () => {
  const company = {
    OIDC_PROVIDERS: 'company, google',
    OIDC_COMPANY_ISSUER: 'https://id.example.com/realms/staff',
    OIDC_COMPANY_CLIENT_ID: 'site',
    OIDC_COMPANY_CLIENT_SECRET: 'secret',
    OIDC_COMPANY_NAME: 'Example ID',
    OIDC_GOOGLE_ISSUER: 'https://accounts.google.com',
    OIDC_GOOGLE_CLIENT_ID: 'g-id',
    OIDC_GOOGLE_CLIENT_SECRET: 'g-secret',
    OIDC_GOOGLE_NAME: 'Google',
  };

  it('are none by default', () => {
    expect(readEnv({}).oidcProviders).toEqual([]);
  });

  it('are read in the order OIDC_PROVIDERS names them, each from its four variables', () => {
    expect(readEnv(company).oidcProviders).toEqual([
      {
        id: 'company',
        name: 'Example ID',
        issuer: 'https://id.example.com/realms/staff',
        clientId: 'site',
        clientSecret: 'secret',
      },
      {
        id: 'google',
        name: 'Google',
        issuer: 'https://accounts.google.com',
        clientId: 'g-id',
        clientSecret: 'g-secret',
      },
    ]);
  });

  it('stop start-up naming every variable that is missing or wrong', () => {
    const { OIDC_GOOGLE_CLIENT_SECRET: _, ...withoutSecret } = company;
    expect(() => readEnv({ ...withoutSecret, OIDC_COMPANY_ISSUER: 'http://id.example.com' })).toThrow(
      'Invalid environment: OIDC_COMPANY_ISSUER: must be an https:// URL (http:// only on localhost); OIDC_GOOGLE_CLIENT_SECRET: must be set',
    );
    expect(() => readEnv({ OIDC_PROVIDERS: 'Company' })).toThrow(/OIDC_PROVIDERS: "Company" must be a lower-case name/);
    expect(() => readEnv({ ...company, OIDC_PROVIDERS: 'google,google' })).toThrow(/"google" is named twice/);
    expect(() => readEnv({ ...company, OIDC_GOOGLE_ISSUER: 'not a url' })).toThrow(/OIDC_GOOGLE_ISSUER: must be a URL/);
  });

  it('take a provider on this machine over http://, as the tests run one', () => {
    const local = { ...company, OIDC_PROVIDERS: 'company', OIDC_COMPANY_ISSUER: 'http://127.0.0.1:9000' };
    expect(readEnv(local).oidcProviders[0]?.issuer).toBe('http://127.0.0.1:9000');
  });
});
