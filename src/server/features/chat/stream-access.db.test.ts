import { expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { withId } from '#common/api-paths.ts';
import { CHAT_API, CONSOLE_CHAT_API } from '#common/chat-api.ts';
import { STAFF_API } from '#common/staff-api.ts';
import { runStaffCommand } from '#server/features/staff/index.ts';
import { describeApi, staffCommandContext, type TestClient } from '#tests/support/api.ts';
import {
  chatMessage,
  consoleStream,
  signedInOperator,
  visitorStream,
  visitorWithConversation,
} from '#tests/support/chat.ts';
import type { EventStreamReader } from '#tests/support/event-stream.ts';
import { codeIn } from '#tests/support/people.ts';
import { codeFor } from '#tests/support/second-factor.ts';

const bodies = (stream: EventStreamReader) => stream.of<{ body: string }>('message').map((message) => message.body);

/** "Within seconds": far under the stream's 10-minute lifetime and its 25-second heartbeat. */
const SECONDS = 5_000;

/**
 * A session or a role taken away counts at once for the event streams it opened too: the stream
 * ends and shows nothing written after, while other people's streams go on.
 */
describeApi('event streams when access ends', (api) => {
  const accountId = async (email: string) => {
    const [row] = await api.db().query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [email]);
    return row?.id as string;
  };

  /** An operator's console stream, ready, and a visitor who writes after `takeAway` ran. */
  const afterTakingAway = async (
    takeAway: (operator: TestClient, email: string, password: string, totpSecret: string) => Promise<void>,
  ) => {
    const { visitor } = await visitorWithConversation(api, 'Before');
    const { client: operator, person, totpSecret } = await signedInOperator(api);
    const { client: colleague } = await signedInOperator(api);
    const stream = await consoleStream(operator);
    const unaffected = await consoleStream(colleague);
    try {
      await Promise.all([stream.ready(), unaffected.ready()]);
      await takeAway(operator, person.email, person.password, totpSecret);
      expect((await visitor.post(CHAT_API.messages, chatMessage('After'))).status).toBe(201);
      await stream.until(() => expect(stream.ended).toBe(true), SECONDS);
      expect(bodies(stream)).not.toContain('After');
      await unaffected.until(() => expect(bodies(unaffected)).toContain('After'));
      expect(unaffected.ended).toBe(false);
    } finally {
      await Promise.all([stream.close(), unaffected.close()]);
    }
    // The browser's reconnection is refused.
    expect([401, 403]).toContain((await operator.get(CONSOLE_CHAT_API.conversations)).status);
  };

  it("ends an operator's console stream when an admin takes them off the staff", async () => {
    const { client: admin } = await signedInOperator(api, 'admin');
    await afterTakingAway(async (_operator, email) => {
      const demoted = await admin.post(withId(STAFF_API.role, await accountId(email)), { role: 'member' });
      expect(demoted.status).toBe(200);
    });
  });

  it("ends an operator's console stream when an admin makes them an editor: staff, but not at the desk", async () => {
    const { client: admin } = await signedInOperator(api, 'admin');
    await afterTakingAway(async (operator, email) => {
      const changed = await admin.post(withId(STAFF_API.role, await accountId(email)), { role: 'editor' });
      expect(changed.status).toBe(200);
      // Still in the console, as an editor.
      expect((await operator.get(STAFF_API.me)).body).toMatchObject({ role: 'editor' });
    });
  });

  it('never opens a console stream to an editor', async () => {
    const { client: editor } = await signedInOperator(api, 'editor');
    expect(await editor.get(CONSOLE_CHAT_API.stream)).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN' } },
    });
  });

  it('ends it when the operator signs out in that browser', async () => {
    await afterTakingAway(async (operator) => {
      expect((await operator.post(ACCOUNT_API.logout)).status).toBe(200);
    });
  });

  it('ends it when the operator signs out everywhere from another browser', async () => {
    await afterTakingAway(async (_operator, email, password, totpSecret) => {
      const other = api.client();
      const { pending } = (await other.post(ACCOUNT_API.login, { email, password })).body as { pending: string };
      expect((await other.post(ACCOUNT_API.loginSecondFactor, { pending, code: codeFor(totpSecret) })).status).toBe(
        200,
      );
      expect((await other.post(ACCOUNT_API.signOutEverywhere)).status).toBe(200);
    });
  });

  it('ends it when the operator deletes the account', async () => {
    await afterTakingAway(async (operator, _email, password) => {
      expect((await operator.post(ACCOUNT_API.deleteAccount, { password })).status).toBe(200);
    });
  });

  it('ends it when the password is reset', async () => {
    await afterTakingAway(async (_operator, email) => {
      expect((await api.client().post(ACCOUNT_API.forgotPassword, { email })).status).toBe(202);
      const code = codeIn((await api.mail().waitFor(email, 1)).text);
      const reset = await api.client().post(ACCOUNT_API.resetPassword, { email, code, password: 'a brand new secret' });
      expect(reset.status).toBe(200);
    });
  });

  it('ends it when the staff command takes them off the staff', async () => {
    const context = await staffCommandContext(api.db());
    await afterTakingAway(async (_operator, email) => {
      expect(await runStaffCommand(context, { action: 'remove', email })).toMatchObject({ ok: true });
    });
  });

  it("keeps an admin's console stream open when they are made an operator: still staff", async () => {
    const { client: admin } = await signedInOperator(api, 'admin');
    const { client: lowered, person } = await signedInOperator(api, 'admin');
    const { visitor } = await visitorWithConversation(api, 'Before');
    const stream = await consoleStream(lowered);
    try {
      await stream.ready();
      const changed = await admin.post(withId(STAFF_API.role, await accountId(person.email)), {
        role: 'operator',
      });
      expect(changed.status).toBe(200);
      expect((await visitor.post(CHAT_API.messages, chatMessage('After'))).status).toBe(201);
      await stream.until(() => expect([stream.ended, bodies(stream)]).toEqual([false, ['After']]));
      expect(stream.ended).toBe(false);
    } finally {
      await stream.close();
    }
  });

  it('ends it at the next heartbeat when the session lapsed without anyone acting', async () => {
    const app = api.app({ settings: { chatStreams: { heartbeatMs: 100, lifetimeMs: 60_000 } } });
    const { client, person } = await signedInOperator(api);
    const operator = api.client(app);
    for (const [name, value] of client.cookies) operator.cookies.set(name, value);
    const stream = await consoleStream(operator);
    try {
      await stream.ready();
      await api.age('sessions', `last_seen_at = now() - interval '400 days'`, person.email);
      await stream.until(() => expect(stream.ended).toBe(true), SECONDS);
    } finally {
      await stream.close();
    }
  });

  it("ends a signed-in visitor's stream of their conversation when they sign out", async () => {
    const { client: member } = await api.member();
    expect((await member.post(CHAT_API.messages, chatMessage('Written while signed in'))).status).toBe(201);
    const [row] = await api.db().query<{ id: number }>('SELECT max(id)::integer AS id FROM chat_conversations');
    const { client: operator } = await signedInOperator(api);
    const stream = await visitorStream(member);
    try {
      await stream.ready();
      expect(bodies(stream)).toEqual(['Written while signed in']);
      expect((await member.post(ACCOUNT_API.logout)).status).toBe(200);
      const reply = await operator.post(CONSOLE_CHAT_API.reply(row?.id as number), chatMessage('A private answer'));
      expect(reply.status).toBe(201);
      await stream.until(() => expect(stream.ended).toBe(true), SECONDS);
      expect(bodies(stream)).toEqual(['Written while signed in']);
    } finally {
      await stream.close();
    }
    // Reconnecting with the chat cookie alone is refused, like every other call.
    expect((await member.get(CHAT_API.stream)).status).toBe(401);
  });

  it('ends a stream opened before signing in once the conversation is tied to the account', async () => {
    const { visitor } = await visitorWithConversation(api, 'Before signing in');
    const { person } = await api.member();
    const stream = await visitorStream(visitor);
    try {
      await stream.ready();
      expect((await visitor.post(ACCOUNT_API.login, { email: person.email, password: person.password })).status).toBe(
        200,
      );
      // The next message ties the conversation to the account: only that account's session may follow it now.
      expect((await visitor.post(CHAT_API.messages, chatMessage('Signed in now'))).status).toBe(201);
      await stream.until(() => expect(stream.ended).toBe(true), SECONDS);
      expect(bodies(stream)).toEqual(['Before signing in']);
    } finally {
      await stream.close();
    }
    // The browser reconnects with its session and misses nothing.
    const again = await visitorStream(visitor);
    try {
      await again.ready();
      expect(bodies(again)).toEqual(['Before signing in', 'Signed in now']);
    } finally {
      await again.close();
    }
  });

  it("keeps an anonymous visitor's stream open when someone else signs out", async () => {
    const { visitor, conversationId } = await visitorWithConversation(api, 'No account here');
    const { client: member } = await api.member();
    const { client: operator } = await signedInOperator(api);
    const stream = await visitorStream(visitor);
    try {
      await stream.ready();
      expect((await member.post(ACCOUNT_API.logout)).status).toBe(200);
      await operator.post(CONSOLE_CHAT_API.reply(conversationId), chatMessage('Still here'));
      await stream.until(() => expect(bodies(stream)).toEqual(['No account here', 'Still here']));
      expect(stream.ended).toBe(false);
    } finally {
      await stream.close();
    }
  });
});
