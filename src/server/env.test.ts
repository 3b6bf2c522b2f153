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
