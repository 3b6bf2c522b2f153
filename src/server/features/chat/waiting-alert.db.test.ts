import { expect, it, vi } from 'vitest';
import { CHAT_API, CONSOLE_CHAT_API } from '#common/chat-api.ts';
import { CHAT_HOURS_API } from '#common/chat-hours.ts';
import { describeApi } from '#tests/support/api.ts';
import { chatMessage, consoleStream, signedInOperator, visitorWithConversation } from '#tests/support/chat.ts';

describeApi('chat waiting alert to the operators on duty', (api) => {
  const alertJobs = (conversationId: number) =>
    api.db().query<{ due: number }>(
      `SELECT extract(epoch FROM run_at - now())::integer AS due FROM jobs
         WHERE kind = 'chat.waiting-alert' AND (payload->>'conversationId')::bigint = $1`,
      [conversationId],
    );
  /** The wait is over now: the alert's job is due at once, and the test waits until it ran. */
  const elapse = async (conversationId: number) => {
    await api
      .db()
      .query(
        `UPDATE jobs SET run_at = now() WHERE kind = 'chat.waiting-alert' AND (payload->>'conversationId')::bigint = $1`,
        [conversationId],
      );
    await vi.waitFor(async () => expect(await alertJobs(conversationId)).toEqual([]), {
      timeout: 10_000,
      interval: 20,
    });
    // And the mails it queued went out.
    await vi.waitFor(
      async () => expect(await api.db().query(`SELECT 1 FROM jobs WHERE kind = 'mail.send'`)).toEqual([]),
      { timeout: 10_000, interval: 20 },
    );
  };
  const mailsTo = (address: string) => api.mail().mails.filter((mail) => mail.to.includes(address));

  it('mails the operators with the console open once per conversation, after the set delay, in their language', async () => {
    const { client: operator, person } = await signedInOperator(api);
    await api.db().query(`UPDATE accounts SET language = 'de' WHERE email = $1`, [person.email]);
    const { client: admin } = await signedInOperator(api, 'admin');
    const settings = (await admin.get(CHAT_HOURS_API.settings)).body;
    await admin.post(CHAT_HOURS_API.settings, { ...settings, alertAfterMinutes: 7 });
    const stream = await consoleStream(operator);
    try {
      await stream.ready();
      const { visitor, conversationId } = await visitorWithConversation(api, 'Is my order on its way?');
      // Due after the admins' delay; a second message in the same wait adds no second job.
      expect((await alertJobs(conversationId)).map((job) => job.due)).toEqual([expect.closeTo(420, 0)]);
      await visitor.post(CHAT_API.messages, chatMessage('Hello?'));
      expect(await alertJobs(conversationId)).toHaveLength(1);

      await elapse(conversationId);
      const mail = await api.mail().waitFor(person.email, 1);
      expect(mail.headers['content-language']).toBe('de');
      expect(mail.subject).toMatch(/Chat/);
      expect(mail.text).toContain('7');
      expect(mail.text).toContain('Is my order on its way?');
      expect(mail.text).toContain('/console/chat');
      expect(mailsTo(person.email)).toHaveLength(2);

      // The team answers, the visitor waits again: no second alert for this conversation.
      await operator.post(CONSOLE_CHAT_API.reply(conversationId), chatMessage('Let me look.'));
      await visitor.post(CHAT_API.messages, chatMessage('Still waiting…'));
      expect(await alertJobs(conversationId)).toEqual([]);
      await elapse(conversationId);
      expect(mailsTo(person.email)).toHaveLength(2);
    } finally {
      await stream.close();
      await admin.post(CHAT_HOURS_API.settings, settings);
    }
  });

  it('mails nobody when the team answered within the delay', async () => {
    const { client: operator, person } = await signedInOperator(api);
    const { conversationId } = await visitorWithConversation(api, 'Quick question');
    await operator.post(CONSOLE_CHAT_API.reply(conversationId), chatMessage('Quick answer'));
    await elapse(conversationId);
    const [row] = await api
      .db()
      .query<{ alerted: boolean }>(
        'SELECT waiting_alert_at IS NOT NULL AS alerted FROM chat_conversations WHERE id = $1',
        [conversationId],
      );
    expect(row?.alerted).toBe(false);
    expect(mailsTo(person.email)).toHaveLength(1);
  });

  it('mails every operator and admin when nobody has the console open', async () => {
    const { person: first } = await signedInOperator(api);
    const { person: second } = await signedInOperator(api, 'admin');
    const { conversationId } = await visitorWithConversation(api, 'Nobody around?');
    await elapse(conversationId);
    for (const person of [first, second]) {
      const mail = await api.mail().waitFor(person.email, 1);
      expect(mail.text).toContain('Nobody around?');
    }
  });
});
