import { afterEach, expect, it, vi } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { isErrorCode } from '#common/error-codes.ts';
import { LIMITS } from '#server/features/accounts/limits.ts';
import { issueFpid } from '#server/features/visitor/index.ts';
import { outboxMailer } from '#server/platform/mail/mailer.ts';
import { outboxFor } from '#server/platform/mail/outbox.ts';
import { accountPerson, describeApi } from '#tests/support/api.ts';
import { captureLog } from '#tests/support/log.ts';
import { codeIn } from '#tests/support/people.ts';

/** Every state-changing account call, with a body that would pass validation. */
const CALLS: [string, Record<string, unknown>][] = [
  [ACCOUNT_API.register, accountPerson()],
  [ACCOUNT_API.verify, { email: 'a@example.com', code: '123456' }],
  [ACCOUNT_API.resendCode, { email: 'a@example.com' }],
  [ACCOUNT_API.login, { email: 'a@example.com', password: 'password' }],
  [ACCOUNT_API.forgotPassword, { email: 'a@example.com' }],
  [ACCOUNT_API.resetPassword, { email: 'a@example.com', code: '123456', password: 'new password' }],
  [ACCOUNT_API.logout, {}],
  [ACCOUNT_API.signOutEverywhere, {}],
  [ACCOUNT_API.deleteAccount, { password: 'password' }],
];
let bodies = 0;
/** A body for each call about someone new each time, so that no per-address limit links two tests. */
function bodyFor(path: string): Record<string, unknown> {
  if (path === ACCOUNT_API.register) return accountPerson();
  const body = { ...CALLS.find(([call]) => call === path)?.[1] };
  if ('email' in body) body.email = `visitor-check-${++bodies}-${Date.now()}@example.com`;
  return body;
}
const FORM_TYPE = 'application/x-www-form-urlencoded';
/** The calls whose pages post without JavaScript too. */
const PLAIN_FORMS: string[] = [
  ACCOUNT_API.register,
  ACCOUNT_API.verify,
  ACCOUNT_API.login,
  ACCOUNT_API.forgotPassword,
  ACCOUNT_API.resetPassword,
];
/** The calls that check the visitor identifier when the browser sends one. */
const NEED_VISITOR = [
  ACCOUNT_API.register,
  ACCOUNT_API.verify,
  ACCOUNT_API.resendCode,
  ACCOUNT_API.login,
  ACCOUNT_API.forgotPassword,
  ACCOUNT_API.resetPassword,
];

const HOSTILE: unknown[] = [
  "' OR '1'='1",
  "'; DROP TABLE accounts; --",
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '\u0000',
  '\ud800',
  '\u202egnp.exe',
  '\u200b',
  'x'.repeat(20_000),
  '𝕏'.repeat(300),
  42,
  -1,
  true,
  null,
  [],
  ['a'],
  { $ne: null },
  { toString: 'x' },
];

describeApi('request checks', (api) => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each(CALLS)('%s refuses another site’s Origin, or none, with 403', async (path, body) => {
    for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'null']) {
      const answer = await api.client().post(path, body, { Origin: origin });
      expect(answer).toMatchObject({ status: 403, body: { error: { code: 'INVALID_REQUEST' } } });
    }
    const response = await api.app().request(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(403);
  });

  it.each(CALLS)('%s takes JSON (or the plain form post of its page), answering 415 otherwise', async (path, body) => {
    // These pages' forms work without JavaScript (plain-forms.db.test.ts).
    const formPost = PLAIN_FORMS.includes(path);
    const types = ['text/plain', 'multipart/form-data; boundary=x', ...(formPost ? [] : [FORM_TYPE])];
    for (const type of types) {
      const answer = await api.client().post(path, JSON.stringify(body), { 'Content-Type': type });
      expect(answer).toMatchObject({ status: 415, body: { error: { code: 'INVALID_REQUEST' } } });
    }
  });

  it.each(CALLS)('%s answers malformed or oversized bodies with 4xx and a code', async (path) => {
    for (const raw of ['{', 'null', '"text"', '[1,2]', '{"email":']) {
      const answer = await api.client().post(path, raw);
      expect(answer.status, raw).toBeGreaterThanOrEqual(400);
      expect(answer.status, raw).toBeLessThan(500);
      expect(isErrorCode((answer.body.error as { code?: unknown } | undefined)?.code), raw).toBe(true);
    }
    const huge = await api.client().post(path, { email: 'a'.repeat(100 * 1024) });
    expect(huge).toMatchObject({ status: 413, body: { error: { code: 'INVALID_REQUEST' } } });
  });

  it.each(NEED_VISITOR)('%s refuses a visitor identifier this server did not issue', async (path) => {
    const body = bodyFor(path);
    const client = api.client();
    for (const forged of ['v1.abc.def', issueFpid(Buffer.alloc(32, 9), 'visitor'), '<script>', '']) {
      client.cookies.set('_fpid', forged);
      expect(await client.post(path, body)).toMatchObject({
        status: 403,
        body: { error: { code: 'INVALID_FINGERPRINT' } },
      });
    }
  });

  it.each(NEED_VISITOR)('%s answers a browser without an identifier as it answers one with', async (path) => {
    const without = api.client();
    without.cookies.delete('_fpid');
    const answer = await without.post(path, bodyFor(path));
    expect(answer.body).not.toMatchObject({ error: { code: 'FINGERPRINT_REQUIRED' } });
    expect(answer.body).not.toMatchObject({ error: { code: 'INVALID_FINGERPRINT' } });
    const withIdentifier = await api.client().post(path, bodyFor(path));
    // The same status and error, if any (an answer may name the address it was about).
    expect({ status: answer.status, error: answer.body.error }).toEqual({
      status: withIdentifier.status,
      error: withIdentifier.body.error,
    });
  });

  it('holds the per-client and per-account limits for browsers without an identifier', async () => {
    const client = api.client();
    client.cookies.delete('_fpid');
    const statuses: number[] = [];
    for (let i = 0; i <= LIMITS.loginPerClient.hits; i++) {
      statuses.push((await client.post(ACCOUNT_API.login, { email: `nobody-${i}@example.com`, password: 'x' })).status);
    }
    expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);

    // Ten tries at one account from ten addresses, none with an identifier: the eleventh is refused.
    const email = `target-${Date.now()}@example.com`;
    for (let i = 0; i < LIMITS.loginPerAccount.hits; i++) {
      const other = api.client();
      other.cookies.delete('_fpid');
      expect((await other.post(ACCOUNT_API.login, { email, password: `guess ${i}` })).status).toBe(401);
    }
    const last = api.client();
    last.cookies.delete('_fpid');
    expect(await last.post(ACCOUNT_API.login, { email, password: 'guess' })).toMatchObject({
      status: 429,
      body: { error: { code: 'TOO_MANY_REQUESTS' } },
    });
  });

  it('lets a visitor without an identifier register, confirm and sign in', async () => {
    const client = api.client();
    client.cookies.delete('_fpid');
    const person = accountPerson();
    expect((await client.post(ACCOUNT_API.register, person)).status).toBe(201);
    const code = codeIn((await api.mail().waitFor(person.email)).text);
    expect((await client.post(ACCOUNT_API.verify, { email: person.email, code })).status).toBe(200);
    expect(await client.post(ACCOUNT_API.login, { email: person.email, password: person.password })).toMatchObject({
      status: 200,
      body: { status: 'signed-in' },
    });
  });

  it('lets anyone sign out, identifier or not', async () => {
    const client = api.client();
    client.cookies.delete('_fpid');
    expect((await client.post(ACCOUNT_API.logout)).status).toBe(200);
  });

  it('answers hostile values in every field with 4xx and an error code, never 5xx', async () => {
    for (const [path, valid] of CALLS) {
      for (const field of Object.keys(valid)) {
        for (const value of HOSTILE) {
          const answer = await api.client().post(path, { ...valid, [field]: value });
          const label = `${path} ${field}=${JSON.stringify(value).slice(0, 40)}`;
          expect(answer.status, label).toBeLessThan(500);
          if (answer.status >= 400) {
            expect(isErrorCode((answer.body.error as { code?: unknown }).code), label).toBe(true);
            expect(JSON.stringify(answer.body), label).not.toMatch(/at .*\.ts:\d+|stack/i);
          }
        }
      }
    }
  }, 120_000);

  it('never writes a password, a code or the address to the log when mail goes over SMTP', async () => {
    // Every level, each request's own line included.
    const captured = captureLog('trace');
    const client = api.client();
    const person = accountPerson();
    await client.post(ACCOUNT_API.register, person);
    const code = codeIn((await api.mail().waitFor(person.email)).text);
    await client.post(ACCOUNT_API.verify, { email: person.email, code: '000000' });
    await client.post(ACCOUNT_API.verify, { email: person.email, code });
    await client.post(ACCOUNT_API.login, { email: person.email, password: 'wrong password' });
    await client.post(ACCOUNT_API.forgotPassword, { email: person.email });
    const resetCode = codeIn((await api.mail().waitFor(person.email, 1)).text);
    await client.post(ACCOUNT_API.resetPassword, { email: person.email, code: resetCode, password: 'new password!' });
    await client.post(ACCOUNT_API.deleteAccount, { password: 'new password!' });
    captured.restore();
    const log = captured.text();
    expect(captured.messages()).toContain('Request answered');
    for (const secret of [person.password, 'wrong password', 'new password!', code, resetCode, person.email]) {
      expect(log).not.toContain(secret);
    }
  });

  it('keeps mail in the outbox and prints its text to the log without SMTP (the embedded default)', async () => {
    const log = captureLog();
    const restore = api.mailVia(outboxMailer(api.db()));
    const client = api.client();
    const person = accountPerson({ language: 'it' });
    expect((await client.post(ACCOUNT_API.register, person)).status).toBe(201);
    await api.runJobs();
    restore();
    log.restore();
    const [mail] = await outboxFor(api.db(), person.email);
    expect(mail?.subject).toBe('Conferma il tuo indirizzo email per Your Company');
    expect(mail?.html).toContain('<html lang="it">');
    const code = codeIn(mail?.text ?? '');
    // The mail's text as one field of one JSON line; its recipient only in part.
    const kept = log.lines.find((line) => (line.mail as { subject?: string } | undefined)?.subject === mail?.subject);
    expect(kept?.mail).toMatchObject({ to: `${person.email[0]}…@example.com`, text: mail?.text });
    expect(log.text()).toContain(code);
    expect(log.text()).not.toContain(person.password);
    expect(log.text()).not.toContain(person.email);
    expect((await client.post(ACCOUNT_API.verify, { email: person.email, code })).status).toBe(200);
  });
});
