import { expect, it } from 'vitest';
import { CHAT_API, CONSOLE_CHAT_API } from '#common/chat-api.ts';
import { type Availability, CHAT_HOURS_API, type ChatSettings, TYPING_EVENT } from '#common/chat-hours.ts';
import { describeApi } from '#tests/support/api.ts';
import {
  chatMessage,
  consoleStream,
  signedInOperator,
  visitorStream,
  visitorWithConversation,
} from '#tests/support/chat.ts';

/** Today's date in a time zone, as holidays are written. */
const today = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
const ALL_WEEK = [0, 1, 2, 3, 4, 5, 6].map(() => [{ from: '00:00', to: '24:00' }]);

const settings = (overrides: Partial<ChatSettings> = {}): ChatSettings => ({
  hoursEnabled: true,
  timeZone: 'Europe/Berlin',
  weekly: ALL_WEEK,
  holidays: [],
  alertAfterMinutes: 5,
  ...overrides,
});

describeApi('chat office hours, alerts and typing', (api) => {
  const admin = async () => (await signedInOperator(api, 'admin')).client;
  const reset = async () => {
    await api.db().query('UPDATE chat_settings SET hours_enabled = false, holidays = $1', [[]]);
  };

  it('lets admins set the hours, operators read them, and refuses bad values with the field', async () => {
    const { client: operator } = await signedInOperator(api);
    const anonymous = api.client();
    expect((await anonymous.get(CHAT_HOURS_API.settings)).status).toBe(401);
    expect((await operator.post(CHAT_HOURS_API.settings, settings())).body).toEqual({
      error: { code: 'FORBIDDEN' },
    });
    const byAdmin = await admin();
    const wanted = settings({
      timeZone: 'Asia/Bangkok',
      weekly: [
        [
          { from: '08:00', to: '12:00' },
          { from: '13:00', to: '17:30' },
        ],
        [],
        [],
        [],
        [],
        [],
        [],
      ],
      holidays: ['2026-12-31', '2026-12-05', '2026-12-05'],
      alertAfterMinutes: 10,
    });
    const saved = await byAdmin.post(CHAT_HOURS_API.settings, wanted);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ...wanted, holidays: ['2026-12-05', '2026-12-31'] });
    expect((await operator.get(CHAT_HOURS_API.settings)).body).toEqual(saved.body);

    const bad: [Partial<ChatSettings>, string][] = [
      [{ timeZone: 'Mars/Olympus' }, 'timeZone'],
      [{ weekly: [[{ from: '17:00', to: '08:00' }], [], [], [], [], [], []] }, 'weekly'],
      [
        {
          weekly: [
            [
              { from: '08:00', to: '12:00' },
              { from: '11:00', to: '13:00' },
            ],
            [],
            [],
            [],
            [],
            [],
            [],
          ],
        },
        'weekly',
      ],
      [{ weekly: [[], []] }, 'weekly'],
      [{ holidays: ['2026-13-01'] }, 'holidays'],
      [{ alertAfterMinutes: 0 }, 'alertAfterMinutes'],
    ];
    for (const [change, field] of bad) {
      const answer = await byAdmin.post(CHAT_HOURS_API.settings, settings(change));
      expect([field, answer.status, (answer.body.error as { code: string }).code]).toEqual([
        field,
        400,
        'VALIDATION_ERROR',
      ]);
      // The field, with where in it for lists: weekly.0.0 is Monday's first span.
      expect(Object.keys((answer.body.error as { fields: object }).fields)[0]?.split('.')[0]).toBe(field);
    }
    await reset();
  });

  it('tells the widget whether the team is there, in the team time zone, and when it is back', async () => {
    const byAdmin = await admin();
    const visitor = api.client();
    // Without office hours the team is "there" and only presence says more.
    await reset();
    expect((await visitor.get(CHAT_HOURS_API.availability)).body).toMatchObject({
      hours: false,
      open: true,
      nextOpen: null,
    });
    await byAdmin.post(CHAT_HOURS_API.settings, settings({ timeZone: 'Asia/Bangkok' }));
    const open = (await visitor.get(CHAT_HOURS_API.availability)).body as unknown as Availability;
    expect(open).toMatchObject({ hours: true, open: true, nextOpen: null });
    // Today, in Thai local time, is a holiday: back at Bangkok's next midnight, 17:00 UTC.
    await byAdmin.post(
      CHAT_HOURS_API.settings,
      settings({ timeZone: 'Asia/Bangkok', holidays: [today('Asia/Bangkok')] }),
    );
    const closed = (await visitor.get(CHAT_HOURS_API.availability)).body as unknown as Availability;
    expect(closed).toMatchObject({ hours: true, open: false, closesAt: null });
    expect(closed.nextOpen).toMatch(/T17:00:00\.000Z$/);
    expect(new Date(closed.nextOpen as string).getTime()).toBeGreaterThan(Date.now());
    // Asking sets no cookie: nothing is stored before the visitor writes.
    expect(visitor.cookies.size).toBe(1);
    await reset();
  });

  it('asks for an address before the first message outside office hours, not from signed-in visitors', async () => {
    const byAdmin = await admin();
    await byAdmin.post(CHAT_HOURS_API.settings, settings({ timeZone: 'UTC', holidays: [today('UTC')] }));
    try {
      const visitor = api.client();
      const refused = await visitor.post(CHAT_API.messages, chatMessage('Anyone there at night?'));
      expect([refused.status, refused.body]).toEqual([
        400,
        { error: { code: 'VALIDATION_ERROR', fields: { email: 'MISSING_REQUIRED_FIELD' } } },
      ]);
      const started = await visitor.post(
        CHAT_API.messages,
        chatMessage('Anyone there at night?', { email: 'night-owl@example.com' }),
      );
      expect(started.status).toBe(201);
      expect(started.body.conversation).toMatchObject({ email: 'night-owl@example.com' });
      // Later messages of that conversation need no address again.
      expect((await visitor.post(CHAT_API.messages, chatMessage('Still me'))).status).toBe(201);
      const { client: member } = await api.member();
      expect((await member.post(CHAT_API.messages, chatMessage('Signed in at night'))).status).toBe(201);
    } finally {
      await reset();
    }
  });

  it('shows the typical first reply time only with enough replies in the last 7 days', async () => {
    await reset();
    await api.db().query('DELETE FROM chat_conversations');
    const visitor = api.client();
    const { client: operator } = await signedInOperator(api);
    const answered = async (replyAfterSeconds: number, daysAgo = 0) => {
      const { conversationId } = await visitorWithConversation(api);
      await operator.post(CONSOLE_CHAT_API.reply(conversationId), chatMessage('Hello!'));
      await api.db().query(
        `UPDATE chat_messages SET created_at = now() - $2::integer * interval '1 day'
           + CASE WHEN author = 'operator' THEN $3::integer * interval '1 second' ELSE interval '0' END
         WHERE conversation_id = $1`,
        [conversationId, daysAgo, replyAfterSeconds],
      );
    };
    for (const seconds of [60, 120, 180, 240]) await answered(seconds);
    // An old one does not count, and neither does one never answered.
    await answered(10, 8);
    await visitorWithConversation(api);
    const fresh = () => api.app({ settings: {} });
    expect((await api.client(fresh()).get(CHAT_HOURS_API.availability)).body.typicalReplySeconds).toBeNull();
    await answered(600);
    expect((await api.client(fresh()).get(CHAT_HOURS_API.availability)).body.typicalReplySeconds).toBe(180);
    expect(visitor.cookies.size).toBe(1);
  });

  it("keeps each operator's sound choice for them alone", async () => {
    const { client: one } = await signedInOperator(api);
    const { client: other } = await signedInOperator(api);
    expect((await one.get(CHAT_HOURS_API.myAlerts)).body).toEqual({ sound: false });
    expect((await one.post(CHAT_HOURS_API.myAlerts, { sound: true })).body).toEqual({ sound: true });
    expect((await one.get(CHAT_HOURS_API.myAlerts)).body).toEqual({ sound: true });
    expect((await other.get(CHAT_HOURS_API.myAlerts)).body).toEqual({ sound: false });
    expect((await one.post(CHAT_HOURS_API.myAlerts, { sound: 'yes' })).status).toBe(400);
    expect((await api.client().get(CHAT_HOURS_API.myAlerts)).status).toBe(401);
  });

  it('passes typing both ways on the streams, throttled, and stores nothing', async () => {
    const { client: operator } = await signedInOperator(api);
    const { visitor, conversationId } = await visitorWithConversation(api);
    const before = await api.db().query('SELECT count(*)::integer AS n FROM chat_messages');
    const console = await consoleStream(operator);
    const widget = await visitorStream(visitor);
    try {
      await Promise.all([console.ready(), widget.ready()]);
      // A typing notice is never kept: one sent before the console's instance listens is gone, as
      // it should be. So it is sent again, well apart, until the console hears one.
      await expect
        .poll(
          async () => {
            if (console.of(TYPING_EVENT).length === 0)
              expect((await visitor.post(CHAT_HOURS_API.typing, {})).status).toBe(200);
            return console.of(TYPING_EVENT).length;
          },
          { interval: 3_000, timeout: 30_000 },
        )
        .toBeGreaterThan(0);
      expect(console.of(TYPING_EVENT)[0]).toEqual({ conversationId });
      const heard = console.of(TYPING_EVENT).length;
      // The visitor's own stream does not hear their own typing.
      expect(widget.of(TYPING_EVENT)).toEqual([]);
      // Two signals at once: the throttle lets one through at most.
      await visitor.post(CHAT_HOURS_API.typing, {});
      await visitor.post(CHAT_HOURS_API.typing, {});
      await expect
        .poll(
          async () => {
            if (widget.of(TYPING_EVENT).length === 0)
              expect((await operator.post(CHAT_HOURS_API.operatorTyping(conversationId), {})).status).toBe(200);
            return widget.of(TYPING_EVENT).length;
          },
          { interval: 3_000, timeout: 30_000 },
        )
        .toBe(1);
      expect(console.of(TYPING_EVENT).length).toBeLessThanOrEqual(heard + 1);
      expect(await api.db().query('SELECT count(*)::integer AS n FROM chat_messages')).toEqual(before);
      // Typing needs a conversation of one's own, and the console an operator.
      expect((await api.client().post(CHAT_HOURS_API.typing, {})).status).toBe(404);
      expect((await visitor.post(CHAT_HOURS_API.operatorTyping(conversationId), {})).status).toBe(401);
      expect((await operator.post(CHAT_HOURS_API.operatorTyping(999_999_999), {})).status).toBe(404);
    } finally {
      await console.close();
      await widget.close();
    }
  });
});
