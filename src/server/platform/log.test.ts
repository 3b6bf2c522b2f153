import { describe, expect, it } from 'vitest';
import { captureLog } from '#tests/support/log.ts';
import { errorFields, log, maskedEmail, scrub, withRequestFields } from './log.ts';

describe('the server log', () => {
  it('writes one JSON object per line, with level, time and message', () => {
    const captured = captureLog();
    try {
      log.info({ job: { kind: 'mail.send' } }, 'Something happened');
      log.debug('not at info');
    } finally {
      captured.restore();
    }
    expect(captured.lines).toHaveLength(1);
    expect(captured.lines[0]).toMatchObject({ level: 'info', msg: 'Something happened', job: { kind: 'mail.send' } });
    expect(new Date(String(captured.lines[0]?.time)).getTime()).toBeGreaterThan(0);
  });

  it('writes the request id and trace id on every line written while a request runs', async () => {
    const captured = captureLog();
    try {
      await withRequestFields({ reqId: 'r-1234567', traceId: 'a'.repeat(32) }, async () => {
        await Promise.resolve();
        log.warn('inside');
      });
      log.warn('outside');
    } finally {
      captured.restore();
    }
    expect(captured.lines[0]).toMatchObject({ msg: 'inside', reqId: 'r-1234567', traceId: 'a'.repeat(32) });
    expect(captured.lines[1]).not.toHaveProperty('reqId');
  });

  it('never names an email address in a message, even one a library put there', () => {
    const captured = captureLog();
    try {
      log.error('550 rejected: <jane.doe@example.com>, retry smtp://user:secret@mail.example.org');
    } finally {
      captured.restore();
    }
    expect(captured.lines[0]?.msg).toBe('550 rejected: <[email]>, retry smtp://user:[email]');
    expect(scrub('no address here: a@b, @example.com')).toBe('no address here: a@b, @example.com');
    expect(maskedEmail('jane.doe@example.com')).toBe('j…@example.com');
  });

  it('says an error in a few short fields: kind, code, message and where it was thrown', () => {
    const error = Object.assign(new Error(`invalid byte sequence for x@example.com\n${'x'.repeat(100_000)}`), {
      code: '22021',
      params: ['y'.repeat(100_000)],
    });
    const { err } = errorFields(error);
    expect(err).toMatchObject({ type: 'Error', code: '22021' });
    expect(err.message).toMatch(/^invalid byte sequence for \[email\] x+$/);
    expect(err.at).toMatch(/log\.test\.ts/);
    expect(JSON.stringify(err)).not.toContain('yyy');
    expect(JSON.stringify(err).length).toBeLessThan(600);
    expect(errorFields('plain').err).toMatchObject({ type: 'Error', message: 'plain' });
  });

  it("names a network failure's cause, which its own message leaves out", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const { err } = errorFields(new TypeError('fetch failed', { cause: refused }));
    expect(err).toMatchObject({ type: 'TypeError', message: 'fetch failed' });
    expect(err.cause).toBe('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9');
    expect(errorFields(new Error('alone')).err.cause).toBeUndefined();
  });
});
