import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { CONTACT_API } from '#common/contact-api.ts';
import { storageEntry } from '#common/storage.ts';
import { issueFormToken } from '#server/features/contact/index.ts';
import { issueFpid } from '#server/features/visitor/index.ts';
import { copyOfTemplate, type TestStore, targets } from '#tests/support/databases.ts';
import { HttpClient, type Instance, startInstance } from '#tests/support/instances.ts';
import { startTestMailServer, type TestMailServer } from '#tests/support/mail-server.ts';
import { codeIn, newPerson } from '#tests/support/people.ts';

const SECRET = 'server-log-test-secret-of-at-least-32-characters';
const EMAIL_LIKE = /[^\s@"<>]+@[^\s@"<>]+\.[a-z]{2,}/i;
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/g;

/** A W3C traceparent, as the browser's tracing sends it: its trace id is what the log must name. */
const traceparent = () => {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, header: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
};

/**
 * The real server (`node src/server/main.ts`) with SMTP, its standard output read during a sign-up
 * and a contact message: every line one JSON object, and nothing personal in any of them.
 */
for (const target of targets) {
  describe.skipIf(target.skip)(`the server's log on ${target.name}`, () => {
    let store: TestStore | undefined;
    let dataDir: string | undefined;
    let mail: TestMailServer;
    let server: Instance;
    const team = `team-${randomBytes(4).toString('hex')}@example.com`;

    beforeAll(async () => {
      mail = await startTestMailServer();
      const database: Record<string, string> = {};
      if (target.kind === 'postgres') {
        store = await target.createStore();
        database.DATABASE_URL = store.options.databaseUrl as string;
      } else {
        dataDir = await copyOfTemplate();
        database.DATA_DIR = dataDir;
      }
      server = await startInstance({
        ...database,
        SERVER_SECRET: SECRET,
        SMTP_URL: mail.url,
        CONTACT_EMAIL: team,
        LOG_LEVEL: 'debug',
      });
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      await mail?.stop();
      await store?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('writes JSON lines with request and trace ids, and no address, code, password or client address', async () => {
      const client = new HttpClient();
      // A browser that the site gave its visitor identifier, as the pages do first.
      client.cookies.set(
        storageEntry('visitorId').name,
        issueFpid(Buffer.from(SECRET, 'utf8'), `visitor-${client.address}`),
      );
      const person = { ...newPerson(), acceptTerms: true, language: 'en' };
      const trace = traceparent();
      const registered = await client.fetch(server.url, 'POST', ACCOUNT_API.register, person, {
        traceparent: trace.header,
      });
      expect(registered.status).toBe(201);
      const requestId = registered.headers.get('x-request-id');
      const code = codeIn((await mail.waitFor(person.email)).text);
      expect((await client.post(server.url, ACCOUNT_API.verify, { email: person.email, code })).status).toBe(200);
      const wrong = { email: person.email, password: 'not the password' };
      expect((await client.post(server.url, ACCOUNT_API.login, wrong)).status).toBe(401);
      const login = { email: person.email, password: person.password };
      expect((await client.post(server.url, ACCOUNT_API.login, login)).status).toBe(200);
      expect((await client.get(server.url, ACCOUNT_API.account)).status).toBe(200);
      // Cookie values long enough to be secrets (not `signed_in=1`).
      const tokens = [...client.cookies.values()].filter((value) => value.length >= 16);
      expect(tokens.length).toBeGreaterThanOrEqual(2);

      // A proxy's request id is kept (the instance trusts one proxy, as behind nginx).
      const forwardedId = randomBytes(16).toString('hex');
      const sender = `sender-${randomBytes(4).toString('hex')}@example.com`;
      const contact = await client.fetch(
        server.url,
        'POST',
        CONTACT_API.messages,
        {
          name: 'Grace Hopper',
          email: sender,
          subject: 'question',
          message: 'How do you keep the logs free of personal data?',
          language: 'en',
          page: '/en/contact',
          token: issueFormToken(Buffer.from(SECRET, 'utf8'), Date.now() - 20_000),
        },
        { 'X-Request-Id': forwardedId },
      );
      expect(contact.status).toBe(202);
      expect(contact.headers.get('x-request-id')).toBe(forwardedId);
      const notice = await mail.waitFor(team);
      expect(notice.text).toContain(sender);

      const output = server.output();
      const lines = output
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const line of lines) {
        expect(line).toEqual(expect.objectContaining({ level: expect.any(String), msg: expect.any(String) }));
        expect(new Date(String(line.time)).getTime()).toBeGreaterThan(0);
      }
      expect(lines.some((line) => String(line.msg).startsWith('Serving on'))).toBe(true);

      // Each request once, under its id and with its route pattern; the trace the browser sent.
      const answered = lines.filter((line) => line.msg === 'Request answered');
      expect(answered.find((line) => line.reqId === requestId)).toMatchObject({
        traceId: trace.traceId,
        method: 'POST',
        route: ACCOUNT_API.register,
        status: 201,
      });
      expect(answered.find((line) => line.reqId === forwardedId)).toMatchObject({
        route: CONTACT_API.messages,
        status: 202,
      });
      expect(answered.map((line) => line.route)).toEqual(
        expect.arrayContaining([ACCOUNT_API.verify, ACCOUNT_API.login, ACCOUNT_API.account]),
      );

      expect(output).not.toMatch(EMAIL_LIKE);
      for (const secret of [code, person.password, wrong.password, person.phone, client.address, ...tokens]) {
        expect(output).not.toContain(secret);
      }
      // The only address in the log is the server's own.
      expect(new Set(output.match(IPV4))).toEqual(new Set(['127.0.0.1']));
    }, 120_000);
  });
}
