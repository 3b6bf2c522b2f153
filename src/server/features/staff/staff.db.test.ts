import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { withId } from '#common/api-paths.ts';
import { INBOX_API } from '#common/inbox-api.ts';
import type { StaffRole } from '#common/roles.ts';
import { STAFF_API, type StaffAnswer } from '#common/staff-api.ts';
import { outboxMailer } from '#server/platform/mail/mailer.ts';
import { loadSiteConfig, ownAddress } from '#server/platform/site-config.ts';
import { describeApi, staffCommandContext, TEST_SECRET } from '#tests/support/api.ts';
import { captureLog } from '#tests/support/log.ts';
import { codeFor, giveSecondFactor } from '#tests/support/second-factor.ts';
import { MAIL_KEPT_NOTE, parseStaffCommand, runStaffCommand, staffCommandToken } from './staff-command.ts';
import { STAFF_COMMAND_PATH } from './staff-routes.ts';

const tag = () => randomBytes(4).toString('hex');

describe('parseStaffCommand', () => {
  it('reads the three commands and refuses anything else', () => {
    expect(parseStaffCommand(['add', 'a@example.com', '--role', 'admin'])).toEqual({
      action: 'add',
      email: 'a@example.com',
      role: 'admin',
      name: undefined,
      language: undefined,
    });
    expect(
      parseStaffCommand(['add', 'a@example.com', '--role', 'operator', '--name', 'Ada L', '--language', 'it']),
    ).toMatchObject({
      name: 'Ada L',
      language: 'it',
    });
    expect(parseStaffCommand(['remove', 'a@example.com'])).toEqual({ action: 'remove', email: 'a@example.com' });
    expect(parseStaffCommand(['list'])).toEqual({ action: 'list' });
    for (const wrong of [
      [],
      ['add', 'a@example.com'],
      ['add', 'a@example.com', '--role', 'member'],
      ['add', 'a@example.com', '--role', 'root'],
      ['add', 'a@example.com', '--role'],
      ['add', 'a@example.com', '--role', 'admin', '--language', 'xx'],
      ['add', 'a@example.com', '--role', 'admin', '--force', 'yes'],
      ['add', 'a@example.com', 'b@example.com', '--role', 'admin'],
      ['remove'],
      ['list', 'extra'],
      ['drop', 'a@example.com'],
    ]) {
      expect(parseStaffCommand(wrong), wrong.join(' ')).toBeNull();
    }
  });
});

describeApi('the staff', (api) => {
  const staff = async (role: StaffRole) => {
    const member = await api.member();
    await api.db().query('UPDATE accounts SET role = $2 WHERE email = $1', [member.person.email, role]);
    await giveSecondFactor(api.db(), member.person.email);
    const [row] = await api
      .db()
      .query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [member.person.email]);
    return { ...member, id: row?.id ?? '' };
  };
  const roleOf = async (email: string) =>
    (await api.db().query<{ role: string }>('SELECT role FROM accounts WHERE email = $1', [email]))[0]?.role;

  it('tells a staff member who they are, and nobody else', async () => {
    const { client, person } = await staff('operator');
    expect(await client.get(STAFF_API.me)).toMatchObject({
      status: 200,
      body: { name: person.name, email: person.email, role: 'operator' },
    });
    expect((await (await api.member()).client.get(STAFF_API.me)).status).toBe(403);
    expect((await api.client().get(STAFF_API.me)).status).toBe(401);
  });

  it('lets only admins see and manage the staff', async () => {
    const { client: operator, id } = await staff('operator');
    const { client: member } = await api.member();
    const calls: [string, string, unknown?][] = [
      ['GET', STAFF_API.members],
      ['POST', STAFF_API.members, { email: `x-${tag()}@example.com`, role: 'operator' }],
      ['POST', withId(STAFF_API.role, id), { role: 'admin' }],
    ];
    for (const [method, path, body] of calls) {
      expect(await operator.request(method, path, body), `${method} ${path}`).toMatchObject({
        status: 403,
        body: { error: { code: 'FORBIDDEN' } },
      });
      expect((await member.request(method, path, body)).status).toBe(403);
      expect((await api.client().request(method, path, body)).status).toBe(401);
    }
    const { client: admin } = await staff('admin');
    for (const headers of [{ Origin: 'https://evil.example' }, { 'Sec-Fetch-Site': 'same-site' }] as Record<
      string,
      string
    >[]) {
      expect((await admin.request('GET', STAFF_API.members, undefined, headers)).status).toBe(403);
    }
    expect(
      await roleOf(
        (await api.db().query<{ email: string }>('SELECT email FROM accounts WHERE id = $1', [id]))[0]?.email ?? '',
      ),
    ).toBe('operator');
  });

  it('adds a new address with an account and a mailed invitation that sets the password', async () => {
    const { client: admin, person: adminPerson } = await staff('admin');
    const email = `new-${tag()}@example.com`;
    const added = await admin.post(STAFF_API.members, {
      email,
      name: 'Katherine Johnson',
      role: 'operator',
      language: 'de',
    });
    expect(added).toMatchObject({ status: 201, body: { id: expect.any(String), invited: true } });
    expect(await roleOf(email)).toBe('operator');

    const mail = await api.mail().waitFor(email);
    expect(mail.subject).toBe('Ihr Zugang zur Konsole von Your Company');
    expect(mail.text).toContain(
      `${adminPerson.name} hat Sie dem Team von Your Company hinzugefügt, Ihre Rolle: Operator.`,
    );
    // Staff need a second factor: the invitation says so, in the invitee's language.
    expect(mail.text).toContain('einen Passkey hinzuzufügen oder eine Authenticator-App einzurichten');
    const link = /http:\/\/localhost:3000\/de\/forgot-password#(\S+)/.exec(mail.text)?.[1] ?? '';
    const params = new URLSearchParams(link);
    expect(params.get('email')).toBe(email);

    const invitee = api.client();
    const password = `a new password ${tag()}`;
    expect((await invitee.post(ACCOUNT_API.resetPassword, { email, code: params.get('code'), password })).status).toBe(
      200,
    );
    expect((await invitee.post(ACCOUNT_API.login, { email, password })).body).toMatchObject({ status: 'signed-in' });
    // The console opens once the new operator has a second factor.
    expect((await invitee.get(STAFF_API.me)).body).toEqual({ error: { code: 'SECOND_FACTOR_REQUIRED' } });
    const { secret } = (await invitee.post(ACCOUNT_API.totpStart, {})).body as { secret: string };
    expect((await invitee.post(ACCOUNT_API.totpConfirm, { code: codeFor(secret), password })).status).toBe(200);
    expect((await invitee.get(STAFF_API.me)).body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Katherine Johnson',
      email,
      role: 'operator',
      mail: 'smtp',
    });
    // The link worked once.
    expect(
      (await api.client().post(ACCOUNT_API.resetPassword, { email, code: params.get('code'), password })).status,
    ).toBe(400);

    const list = (await admin.get(STAFF_API.members)).body as unknown as StaffAnswer;
    expect(list.staff.find((member) => member.email === email)).toMatchObject({
      name: 'Katherine Johnson',
      role: 'operator',
      verified: true,
    });
  });

  it('makes an existing member staff without mailing them, and refuses to touch the admin’s own role', async () => {
    const { client: admin, person, id } = await staff('admin');
    const { person: member } = await api.member();
    const before = api.mail().mails.filter((mail) => mail.to.includes(member.email)).length;
    expect(await admin.post(STAFF_API.members, { email: member.email.toUpperCase(), role: 'admin' })).toMatchObject({
      status: 201,
      body: { invited: false },
    });
    expect(await roleOf(member.email)).toBe('admin');
    expect(api.mail().mails.filter((mail) => mail.to.includes(member.email))).toHaveLength(before);

    expect(await admin.post(STAFF_API.members, { email: person.email, role: 'operator' })).toMatchObject({
      status: 409,
      body: { error: { code: 'OWN_ROLE', fields: { email: 'OWN_ROLE' } } },
    });
    expect(await admin.post(withId(STAFF_API.role, id), { role: 'member' })).toMatchObject({
      status: 409,
      body: { error: { code: 'OWN_ROLE' } },
    });
    expect(await roleOf(person.email)).toBe('admin');
  });

  it('changes a role and takes someone off the staff, which counts at once', async () => {
    const { client: admin } = await staff('admin');
    const { client: operator, person, id } = await staff('operator');
    expect((await operator.get(INBOX_API.messages)).status).toBe(200);
    expect(await admin.post(withId(STAFF_API.role, id), { role: 'admin' })).toMatchObject({ status: 200 });
    expect((await operator.get(STAFF_API.me)).body).toMatchObject({ role: 'admin' });
    expect(await admin.post(withId(STAFF_API.role, id), { role: 'member' })).toMatchObject({ status: 200 });
    expect(await roleOf(person.email)).toBe('member');
    expect(await operator.get(INBOX_API.messages)).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN' } },
    });
    // No longer on the staff, they are not found there.
    expect((await admin.post(withId(STAFF_API.role, id), { role: 'operator' })).status).toBe(404);
  });

  it('refuses bad input to the staff calls with a 4xx', async () => {
    const { client: admin, id } = await staff('admin');
    const cases: [unknown, Record<string, string>][] = [
      [{ email: 'nope', role: 'operator' }, { email: 'INVALID_EMAIL' }],
      [{ email: `a-${tag()}@example.com`, role: 'root' }, { role: 'INVALID_REQUEST' }],
      [{ email: `a-${tag()}@example.com`, role: 'member' }, { role: 'INVALID_REQUEST' }],
      [
        { email: `a-${tag()}@example.com`, role: 'operator', name: 'Eve\r\nBcc: x@example.com' },
        { name: 'INVALID_NAME' },
      ],
      [{ email: `a-${tag()}@example.com`, role: 'operator', name: '<b>Eve</b>' }, { name: 'INVALID_NAME' }],
      [{ email: `a-${tag()}@example.com`, role: 'operator', language: 'xx' }, { language: 'INVALID_REQUEST' }],
    ];
    for (const [body, fields] of cases) {
      expect(await admin.post(STAFF_API.members, body), JSON.stringify(body)).toMatchObject({
        status: 400,
        body: { error: { code: 'VALIDATION_ERROR', fields } },
      });
    }
    expect((await admin.post(withId(STAFF_API.role, id), { role: 'god' })).status).toBe(400);
    expect((await admin.post(withId(STAFF_API.role, 'x'), { role: 'operator' })).status).toBe(404);
    expect((await admin.post(withId(STAFF_API.role, randomUUID()), { role: 'operator' })).status).toBe(404);
  });

  it('runs the staff command: the first admin, with a one-time link to set the password', async () => {
    const context = await staffCommandContext(api.db());
    const email = `first-admin-${tag()}@example.com`;
    const added = await runStaffCommand(context, { action: 'add', email, role: 'admin', name: 'Ada Lovelace' });
    expect(added.ok).toBe(true);
    const lines = added.ok ? added.lines : [];
    expect(lines[0]).toBe(
      `Ada Lovelace <${email}> is now admin (a new account): everything an operator does, and manages the staff.`,
    );
    const code = new URLSearchParams(/#(.+)$/.exec(lines[2] ?? '')?.[1]).get('code');
    const client = api.client();
    const password = `admin password ${tag()}`;
    expect((await client.post(ACCOUNT_API.resetPassword, { email, code, password })).status).toBe(200);
    expect((await client.post(ACCOUNT_API.login, { email, password })).status).toBe(200);
    // The command said so: the console stays shut until the account has a second factor.
    expect(lines.join('\n')).toContain('two-step verification');
    expect(lines.join('\n')).toMatch(/a passkey is added or an\s+authenticator app is set up/);
    expect((await client.get(STAFF_API.members)).body).toEqual({ error: { code: 'SECOND_FACTOR_REQUIRED' } });
    const { secret } = (await client.post(ACCOUNT_API.totpStart, {})).body as { secret: string };
    expect((await client.post(ACCOUNT_API.totpConfirm, { code: codeFor(secret), password })).status).toBe(200);
    expect((await client.get(STAFF_API.members)).status).toBe(200);

    const listed = await runStaffCommand(context, { action: 'list' });
    expect(listed.ok && listed.lines.some((line) => line.includes(email))).toBe(true);
    expect(await runStaffCommand(context, { action: 'remove', email })).toMatchObject({ ok: true });
    expect(await roleOf(email)).toBe('member');
    expect(await runStaffCommand(context, { action: 'remove', email })).toMatchObject({ ok: false });
    expect(await runStaffCommand(context, { action: 'add', email: 'not an address', role: 'admin' })).toMatchObject({
      ok: false,
    });
  });

  it('says that mail is kept when no SMTP is set, and links to the port the server answers on', async () => {
    // The shipped config.json, and a server on port 4000 (as `PORT=4000 npm run staff` reads it).
    const context = await staffCommandContext(api.db(), {
      site: await loadSiteConfig({ defaultSiteUrl: ownAddress('0.0.0.0', 4000) }),
      mailKept: true,
    });
    const email = `kept-${tag()}@example.com`;
    const added = await runStaffCommand(context, { action: 'add', email, role: 'operator' });
    const lines = added.ok ? added.lines : [];
    expect(lines[2]).toMatch(/^ {2}http:\/\/localhost:4000\/en\/forgot-password#/);
    expect(lines[3]).toBe('Then sign in and open http://localhost:4000/console');
    expect(lines[4]).toContain('two-step verification');
    expect(lines.at(-1)).toBe(MAIL_KEPT_NOTE);
    expect(MAIL_KEPT_NOTE).toContain('mail_outbox');
    const listed = await runStaffCommand(context, { action: 'list' });
    expect(listed.ok && listed.lines.at(-1)).toBe(MAIL_KEPT_NOTE);
    const removed = await runStaffCommand(context, { action: 'remove', email });
    expect(removed.ok && removed.lines).toHaveLength(1);
    // With SMTP, nothing is said.
    const sent = await runStaffCommand({ ...context, mailKept: false }, { action: 'list' });
    expect(sent.ok && sent.lines).not.toContain(MAIL_KEPT_NOTE);
  });

  it('tells the console whether mail leaves the server', async () => {
    const { client } = await staff('operator');
    expect((await client.get(STAFF_API.me)).body).toMatchObject({ mail: 'smtp' });
    const kept = api.client(api.app({ settings: { mailKept: true } }));
    for (const [name, value] of client.cookies) kept.cookies.set(name, value);
    expect((await kept.get(STAFF_API.me)).body).toMatchObject({ mail: 'kept' });
  });

  it('shows how an invitation’s mail stands, as the jobs report it', async () => {
    const { client: admin } = await staff('admin');
    const invitationOf = async (email: string) =>
      ((await admin.get(STAFF_API.members)).body as unknown as StaffAnswer).staff.find(
        (member) => member.email === email,
      )?.invitation;
    const server = api.holdingMailer();
    const restore = api.mailVia(server.mailer);
    const log = captureLog();
    const email = `invited-${tag()}@example.com`;
    try {
      expect((await admin.post(STAFF_API.members, { email, role: 'operator' })).status).toBe(201);
      await vi.waitFor(() => expect(server.holding()).toBe(true));
      expect(await invitationOf(email)).toBe('queued');
      server.goDown();
      await expect.poll(() => invitationOf(email)).toBe('retrying');
    } finally {
      restore();
      log.restore();
    }
    await api
      .db()
      .query(`UPDATE jobs SET run_at = now() WHERE kind = 'staff.invite' AND payload->>'mail' LIKE $1`, [`%${email}%`]);
    await api.mail().waitFor(email);
    await expect.poll(() => invitationOf(email)).toBe('sent');

    const kept = captureLog();
    const keep = api.mailVia(outboxMailer(api.db()));
    const keptEmail = `kept-invitation-${tag()}@example.com`;
    try {
      expect((await admin.post(STAFF_API.members, { email: keptEmail, role: 'operator' })).status).toBe(201);
      await expect.poll(() => invitationOf(keptEmail)).toBe('kept');
    } finally {
      keep();
      kept.restore();
    }
    // Someone who set a password has nothing pending.
    const { person } = await staff('operator');
    expect(await invitationOf(person.email)).toBeNull();
  });

  const callStaffCommand = (authorization: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
    api.app().request(STAFF_COMMAND_PATH, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: {
        'Content-Type': 'application/json',
        ...(authorization ? { Authorization: authorization } : {}),
        ...headers,
      },
    });

  it.skipIf(api.target.kind !== 'pglite')(
    'answers the staff command on the running server only with the token',
    async () => {
      const email = `by-server-${tag()}@example.com`;
      const call = callStaffCommand;
      expect((await call(undefined, { action: 'list' })).status).toBe(401);
      expect((await call('Bearer wrong', { action: 'list' })).status).toBe(401);
      const token = `Bearer ${staffCommandToken(TEST_SECRET)}`;
      expect((await call(token, { action: 'add', email, role: 'root' })).status).toBe(400);
      expect((await call(token, 'list')).status).toBe(400);
      const answer = await call(token, { action: 'add', email, role: 'operator' });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({
        ok: true,
        lines: [
          expect.stringContaining(email),
          expect.any(String),
          expect.any(String),
          expect.any(String),
          expect.stringContaining('two-step verification'),
          expect.any(String),
        ],
      });
      expect(await roleOf(email)).toBe('operator');
    },
  );

  it('refuses the staff command through a proxy, even from loopback and with the token', async () => {
    const email = `through-proxy-${tag()}@example.com`;
    const token = `Bearer ${staffCommandToken(TEST_SECRET)}`;
    // What nginx (or another proxy) adds: the documented nginx sets the first and the third.
    const proxied: Record<string, string>[] = [
      { 'X-Forwarded-For': '203.0.113.9' },
      { 'X-Forwarded-For': '127.0.0.1' },
      { 'X-Forwarded-Proto': 'https' },
      { 'X-Forwarded-Host': 'example.com' },
      { Forwarded: 'for=203.0.113.9' },
      { 'X-Real-IP': '203.0.113.9' },
      { Via: '1.1 proxy' },
    ];
    for (const headers of proxied) {
      const answer = await callStaffCommand(token, { action: 'add', email, role: 'admin' }, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(404);
      expect(await answer.json()).toEqual({ error: { code: 'NOT_FOUND' } });
    }
    expect(await roleOf(email)).toBeUndefined();
  });

  it.skipIf(api.target.kind !== 'postgres')(
    'does not answer the staff command with PostgreSQL, where the command opens the database itself',
    async () => {
      const email = `on-postgres-${tag()}@example.com`;
      const answer = await callStaffCommand(`Bearer ${staffCommandToken(TEST_SECRET)}`, {
        action: 'add',
        email,
        role: 'admin',
      });
      expect(answer.status).toBe(404);
      expect(await roleOf(email)).toBeUndefined();
    },
  );
});
