import { expect, it, vi } from 'vitest';
import { CHAT_API, CONSOLE_CHAT_API } from '#common/chat-api.ts';
import { loadSiteConfig } from '#server/platform/site-config.ts';
import { describeApi } from '#tests/support/api.ts';
import { chatMessage, signedInOperator } from '#tests/support/chat.ts';

const site = await loadSiteConfig();

/** Long enough to read and mark a reply within it in a test, short enough to wait for. */
const DELAY_SECONDS = 1;

describeApi('chat replies mailed when unread', (api) => {
  const quickApp = () => api.app({ settings: { chatReplyMailDelaySeconds: DELAY_SECONDS } });

  /** Waits until nothing is left to run for this conversation and this address. */
  const settled = async (conversationId: number, address: string) => {
    await vi.waitFor(
      async () => {
        const pending = await api.db().query(
          `SELECT 1 FROM jobs WHERE (kind = 'chat.reply-mail' AND (payload->>'conversationId')::bigint = $1)
             OR (kind = 'mail.send' AND payload->>'to' = $2)`,
          [conversationId, address],
        );
        expect(pending).toEqual([]);
      },
      { timeout: 10_000, interval: 50 },
    );
  };
  const mailsTo = (address: string) => api.mail().mails.filter((mail) => mail.to.includes(address));

  const start = async (app: ReturnType<typeof quickApp>, body: string, overrides: Record<string, unknown> = {}) => {
    const visitor = api.client(app);
    const answer = await visitor.post(CHAT_API.messages, chatMessage(body, overrides));
    expect(answer.status).toBe(201);
    const [row] = await api.db().query<{ id: number }>('SELECT max(id)::integer AS id FROM chat_conversations');
    return { visitor, conversationId: row?.id as number };
  };

  it("mails the team's replies the visitor has not read after the delay, once, with the last messages", async () => {
    const app = quickApp();
    const { client: operator } = await signedInOperator(api);
    const { visitor, conversationId } = await start(app, 'Can I change my delivery address?', {
      page: '/fr/contact',
      language: 'fr',
    });
    const address = `away-${conversationId}@example.com`;
    await visitor.post(CHAT_API.email, { email: address });
    const staff = api.client(app);
    for (const [name, value] of operator.cookies) staff.cookies.set(name, value);
    await staff.post(CONSOLE_CHAT_API.reply(conversationId), chatMessage('Yes, until it ships.'));
    await staff.post(CONSOLE_CHAT_API.reply(conversationId), chatMessage('Write it <b>here</b> & we change it.'));

    const mail = await api.mail().waitFor(address);
    const text = mail.text.replace(/\r\n/g, '\n');
    expect(mail.subject).toBe(`${site.brand.siteName} a répondu à votre message`);
    expect(mail.headers['content-language']).toBe('fr');
    expect(text).toContain('Vous:\n  Can I change my delivery address?');
    expect(text).toContain(`${site.brand.siteName}:\n  Yes, until it ships.`);
    expect(mail.text).toContain('Write it <b>here</b> & we change it.');
    // Its link opens this conversation, in French, in whichever browser the mail is read in.
    expect(mail.text).toMatch(/\/api\/chat\/resume\?c=\d+&e=\d+&l=fr&s=[\w-]{43}/);
    expect(mail.html).toContain('Write it &lt;b&gt;here&lt;/b&gt; &amp; we change it.');
    expect(mail.html).not.toContain('<b>here</b>');

    await settled(conversationId, address);
    expect(mailsTo(address)).toHaveLength(1);
    // A later reply is mailed on its own, once more.
    await staff.post(CONSOLE_CHAT_API.reply(conversationId), chatMessage('Done: it is changed.'));
    const second = await api.mail().waitFor(address, 1);
    expect(second.text).toContain('Done: it is changed.');
    await settled(conversationId, address);
    expect(mailsTo(address)).toHaveLength(2);
  });

  it('mails nothing when the visitor read the reply in time', async () => {
    const app = api.app({ settings: { chatReplyMailDelaySeconds: 3 } });
    const { client: operator } = await signedInOperator(api);
    const { visitor, conversationId } = await start(app, 'Hello?');
    const address = `present-${conversationId}@example.com`;
    await visitor.post(CHAT_API.email, { email: address });
    const staff = api.client(app);
    for (const [name, value] of operator.cookies) staff.cookies.set(name, value);
    const reply = await staff.post(CONSOLE_CHAT_API.reply(conversationId), chatMessage('Hello! How can we help?'));
    await visitor.post(CHAT_API.read, { upTo: (reply.body.message as { id: number }).id });

    await settled(conversationId, address);
    expect(mailsTo(address)).toEqual([]);
  });

  it("uses a signed-in visitor's account address, and mails nothing when there is no address", async () => {
    const app = quickApp();
    const { client: operator } = await signedInOperator(api);
    const staff = api.client(app);
    for (const [name, value] of operator.cookies) staff.cookies.set(name, value);

    const { client: member, person } = await api.member();
    const signedIn = api.client(app);
    for (const [name, value] of member.cookies) signedIn.cookies.set(name, value);
    await signedIn.post(CHAT_API.messages, chatMessage('Wo ist meine Bestellung?', { language: 'de', page: '/de' }));
    const [row] = await api.db().query<{ id: number }>('SELECT max(id)::integer AS id FROM chat_conversations');
    const memberConversation = row?.id as number;
    await staff.post(CONSOLE_CHAT_API.reply(memberConversation), chatMessage('Sie ist unterwegs.'));
    // The first mail to that address was its confirmation code.
    const mail = await api.mail().waitFor(person.email, 1);
    expect(mail.subject).toBe(`${site.brand.siteName} hat auf Ihre Nachricht geantwortet`);

    const { conversationId: anonymous } = await start(app, 'No address given');
    await staff.post(CONSOLE_CHAT_API.reply(anonymous), chatMessage('We answer here.'));
    await vi.waitFor(
      async () =>
        expect(
          await api
            .db()
            .query(`SELECT 1 FROM jobs WHERE kind = 'chat.reply-mail' AND (payload->>'conversationId')::bigint = $1`, [
              anonymous,
            ]),
        ).toEqual([]),
      { timeout: 10_000, interval: 50 },
    );
    const [state] = await api
      .db()
      .query<{ mailed: number }>('SELECT mailed_up_to::integer AS mailed FROM chat_conversations WHERE id = $1', [
        anonymous,
      ]);
    expect(state?.mailed).toBe(0);
  });
});
