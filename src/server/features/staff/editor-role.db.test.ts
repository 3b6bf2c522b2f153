import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { ACCOUNT_SETTINGS_API, type DataExportAnswer } from '#common/account-settings-api.ts';
import { ANALYTICS_API } from '#common/analytics-api.ts';
import { withId } from '#common/api-paths.ts';
import { CONSOLE_CHAT_API } from '#common/chat-api.ts';
import { CHAT_DESK_API } from '#common/chat-desk-api.ts';
import { CHAT_HOURS_API } from '#common/chat-hours.ts';
import { CONTACT_API } from '#common/contact-api.ts';
import { INBOX_API } from '#common/inbox-api.ts';
import { STAFF_API, type StaffAnswer } from '#common/staff-api.ts';
import { issueFormToken } from '#server/features/contact/form-token.ts';
import { describeApi, staffCommandContext, TEST_SECRET } from '#tests/support/api.ts';
import { chatMessage, signedInOperator, visitorWithConversation } from '#tests/support/chat.ts';
import { codeFor, giveSecondFactor } from '#tests/support/second-factor.ts';
import { parseStaffCommand, runStaffCommand, USAGE } from './staff-command.ts';

const tag = () => randomBytes(4).toString('hex');

/**
 * Editors are staff who edit and publish the site's texts: the console lets them in (with a second
 * factor, like all staff), and nothing that shows what visitors write, nor the staff, opens to them.
 */
describeApi('the editor role', (api) => {
  const idOf = async (email: string) =>
    (await api.db().query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [email]))[0]?.id ?? '';
  const roleOf = async (email: string) =>
    (await api.db().query<{ role: string }>('SELECT role FROM accounts WHERE email = $1', [email]))[0]?.role;

  /** A message sent through the contact form; its id. */
  const contactMessage = async () => {
    const email = `visitor-${tag()}@example.com`;
    const sent = await api.client().post(CONTACT_API.messages, {
      name: 'Vera Visitor',
      email,
      subject: 'support',
      message: 'Where is my invoice?',
      language: 'en',
      page: '/en/contact',
      token: issueFormToken(TEST_SECRET, Date.now() - 20_000),
    });
    expect(sent.status).toBe(202);
    const [row] = await api.db().query<{ id: string }>('SELECT id FROM contact_messages WHERE email = $1', [email]);
    return row?.id ?? '';
  };

  it('opens the console to an editor with a second factor, and only then', async () => {
    const { client: member, person } = await api.member();
    await api.db().query(`UPDATE accounts SET role = 'editor' WHERE email = $1`, [person.email]);
    // The header offers the way to the console; the console asks for the second factor first.
    expect((await member.get(ACCOUNT_API.session)).body).toEqual({ account: { name: person.name, staff: true } });
    expect(await member.get(STAFF_API.me)).toMatchObject({
      status: 403,
      body: { error: { code: 'SECOND_FACTOR_REQUIRED' } },
    });

    const { client: editor, person: other } = await signedInOperator(api, 'editor');
    expect(await editor.get(STAFF_API.me)).toMatchObject({
      status: 200,
      body: { id: await idOf(other.email), name: other.name, email: other.email, role: 'editor' },
    });
    // Another site's page gets nothing, editors' sessions included.
    expect((await editor.request('GET', STAFF_API.me, undefined, { Origin: 'https://evil.example' })).status).toBe(403);
  });

  it('refuses an editor everything that shows what visitors write, and the staff', async () => {
    const messageId = await contactMessage();
    const { conversationId } = await visitorWithConversation(api, 'Hello from a visitor');
    const { client: editor, person } = await signedInOperator(api, 'editor');
    const { client: operator } = await signedInOperator(api);
    const editorId = await idOf(person.email);
    const calls: [string, string, unknown?][] = [
      // The inbox and a message.
      ['GET', INBOX_API.messages],
      ['GET', withId(INBOX_API.message, messageId)],
      ['POST', withId(INBOX_API.status, messageId), { status: 'read' }],
      ['POST', withId(INBOX_API.reply, messageId), { body: 'Hello' }],
      ['POST', withId(INBOX_API.remove, messageId), {}],
      // The chat console, its desk and its settings.
      ['GET', CONSOLE_CHAT_API.conversations],
      ['GET', CONSOLE_CHAT_API.conversation(conversationId)],
      ['POST', CONSOLE_CHAT_API.reply(conversationId), chatMessage('An answer')],
      ['POST', CONSOLE_CHAT_API.close(conversationId), {}],
      ['GET', CONSOLE_CHAT_API.stream],
      ['GET', CHAT_DESK_API.savedReplies],
      ['GET', CHAT_DESK_API.team],
      ['POST', CHAT_DESK_API.note(conversationId), chatMessage('A note')],
      ['GET', `${CHAT_DESK_API.quality}?weeks=4`],
      ['GET', CHAT_HOURS_API.settings],
      ['GET', CHAT_HOURS_API.myAlerts],
      ['POST', CHAT_HOURS_API.operatorTyping(conversationId), {}],
      // Analytics and search.
      ['GET', `${ANALYTICS_API.dashboard}?period=7d`],
      ['GET', `${CHAT_DESK_API.search}?q=invoice`],
      // The staff.
      ['GET', STAFF_API.members],
      ['POST', STAFF_API.members, { email: `x-${tag()}@example.com`, role: 'editor' }],
      ['POST', withId(STAFF_API.role, editorId), { role: 'admin' }],
      ['POST', withId(STAFF_API.role, await idOf((await signedInOperator(api)).person.email)), { role: 'member' }],
    ];
    for (const [method, path, body] of calls) {
      expect(await editor.request(method, path, body), `${method} ${path}`).toMatchObject({
        status: 403,
        body: { error: { code: 'FORBIDDEN' } },
      });
    }
    // The same reads answer an operator (the stream aside, which stays open): the refusals are the
    // role's, not missing pages.
    const deskReads = calls.filter(
      ([method, path]) => method === 'GET' && path !== CONSOLE_CHAT_API.stream && path !== STAFF_API.members,
    );
    expect(deskReads).toHaveLength(11);
    for (const [, path] of deskReads) expect((await operator.get(path)).status, path).toBe(200);
    // Nothing the editor tried changed anything.
    expect(await roleOf(person.email)).toBe('editor');
    const [message] = await api
      .db()
      .query<{ status: string }>('SELECT status FROM contact_messages WHERE id = $1', [messageId]);
    expect(message?.status).toBe('new');
    const [chat] = await api
      .db()
      .query<{ count: number }>('SELECT count(*)::integer AS count FROM chat_messages WHERE conversation_id = $1', [
        conversationId,
      ]);
    expect(chat?.count).toBe(1);
  });

  it('lets an admin make a member an editor and back, and invite an editor', async () => {
    const { client: admin } = await signedInOperator(api, 'admin');
    const { client: member, person } = await api.member();
    expect(await admin.post(STAFF_API.members, { email: person.email, role: 'editor' })).toMatchObject({
      status: 201,
      body: { invited: false },
    });
    expect(await roleOf(person.email)).toBe('editor');
    const staff = (await admin.get(STAFF_API.members)).body as unknown as StaffAnswer;
    expect(staff.staff.find((one) => one.email === person.email)).toMatchObject({ role: 'editor', verified: true });

    // An editor made an operator reads the inbox; made an editor again, no longer.
    const id = await idOf(person.email);
    await giveSecondFactor(api.db(), person.email);
    expect((await member.get(STAFF_API.me)).body).toMatchObject({ role: 'editor' });
    expect((await admin.post(withId(STAFF_API.role, id), { role: 'operator' })).status).toBe(200);
    expect((await member.get(INBOX_API.messages)).status).toBe(200);
    expect((await admin.post(withId(STAFF_API.role, id), { role: 'editor' })).status).toBe(200);
    expect((await member.get(INBOX_API.messages)).status).toBe(403);
    expect((await member.get(STAFF_API.me)).body).toMatchObject({ role: 'editor' });

    // Back to a member: off the staff, and out of the console.
    expect((await admin.post(withId(STAFF_API.role, id), { role: 'member' })).status).toBe(200);
    expect(await roleOf(person.email)).toBe('member');
    expect(await member.get(STAFF_API.me)).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect((await member.get(ACCOUNT_API.session)).body).toEqual({ account: { name: person.name } });

    // Someone new is invited as an editor, in their language.
    const email = `editor-${tag()}@example.com`;
    expect(await admin.post(STAFF_API.members, { email, role: 'editor', language: 'fr' })).toMatchObject({
      status: 201,
      body: { invited: true },
    });
    expect(await roleOf(email)).toBe('editor');
    const mail = await api.mail().waitFor(email);
    expect(mail.text).toContain('avec le rôle «\u00a0rédacteur\u00a0»');
    expect(mail.text).toContain('validation en deux étapes');
  });

  it('adds an editor with the staff command, which says what the role opens', async () => {
    expect(parseStaffCommand(['add', 'e@example.com', '--role', 'editor'])).toMatchObject({ role: 'editor' });
    expect(USAGE).toContain('--role editor|operator|admin');
    expect(USAGE).toMatch(/^ {2}editor +edits and publishes the site's texts/m);

    const context = await staffCommandContext(api.db());
    const email = `command-editor-${tag()}@example.com`;
    const added = await runStaffCommand(context, { action: 'add', email, role: 'editor', name: 'Eddie Editor' });
    const lines = added.ok ? added.lines : [];
    expect(lines[0]).toBe(
      `Eddie Editor <${email}> is now editor (a new account): edits and publishes the site's texts; sees no messages, chats or analytics.`,
    );
    expect(lines.join('\n')).toContain('two-step verification');
    expect(await roleOf(email)).toBe('editor');

    // The link sets the password; with a second factor, the console knows them as an editor.
    const code = new URLSearchParams(/#(.+)$/.exec(lines[2] ?? '')?.[1]).get('code');
    const client = api.client();
    const password = `editor password ${tag()}`;
    expect((await client.post(ACCOUNT_API.resetPassword, { email, code, password })).status).toBe(200);
    expect((await client.post(ACCOUNT_API.login, { email, password })).status).toBe(200);
    expect((await client.get(STAFF_API.me)).body).toEqual({ error: { code: 'SECOND_FACTOR_REQUIRED' } });
    const { secret } = (await client.post(ACCOUNT_API.totpStart, {})).body as { secret: string };
    expect((await client.post(ACCOUNT_API.totpConfirm, { code: codeFor(secret), password })).status).toBe(200);
    expect((await client.get(STAFF_API.me)).body).toMatchObject({ email, role: 'editor' });
    expect((await client.get(INBOX_API.messages)).status).toBe(403);

    const listed = await runStaffCommand(context, { action: 'list' });
    expect(listed.ok && listed.lines.find((line) => line.includes(email))).toMatch(/^editor +Eddie Editor/);
    expect(await runStaffCommand(context, { action: 'remove', email })).toMatchObject({ ok: true });
    expect(await roleOf(email)).toBe('member');
  });

  it("names the role in the copy of an editor's own data, in their language", async () => {
    const { client, person } = await api.member({ language: 'it' });
    await api.db().query(`UPDATE accounts SET role = 'editor' WHERE email = $1`, [person.email]);
    const answer = await client.post(ACCOUNT_SETTINGS_API.dataExport, {});
    expect(answer.status).toBe(200);
    const { data, html } = answer.body as unknown as DataExportAnswer;
    expect(data.profile).toMatchObject({ role: 'editor' });
    expect(html).toContain('<dd>redattore</dd>');
  });

  it('keeps the role column to the known roles', async () => {
    const { person } = await api.member();
    await expect(
      api.db().query(`UPDATE accounts SET role = 'author' WHERE email = $1`, [person.email]),
    ).rejects.toThrow(/accounts_role_known/);
    await api.db().query(`UPDATE accounts SET role = 'editor' WHERE email = $1`, [person.email]);
    expect(await roleOf(person.email)).toBe('editor');
  });
});
