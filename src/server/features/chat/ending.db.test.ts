import { expect, it } from 'vitest';
import { CHAT_API, CONSOLE_CHAT_API } from '#common/chat-api.ts';
import { CHAT_DESK_API, CHAT_ENDING_API, type QualityAnswer } from '#common/chat-desk-api.ts';
import { loadSiteConfig } from '#server/platform/site-config.ts';
import { describeApi, TEST_SECRET } from '#tests/support/api.ts';
import { chatMessage, signedInOperator } from '#tests/support/chat.ts';
import { lastMondays } from './ending-queries.ts';
import { resumeLink } from './resume-link.ts';

const site = await loadSiteConfig();
const DAY_MS = 24 * 60 * 60 * 1000;

describeApi('chat endings: rating, transcript, the mailed link', (api) => {
  /** A visitor's conversation in `language` that an operator answered, in an app with a quick reply mail. */
  const answered = async (language: string, settings = {}) => {
    const app = api.app({ settings: { chatReplyMailDelaySeconds: 1, ...settings } });
    const { client: operator } = await signedInOperator(api);
    const staff = api.client(app);
    for (const [name, value] of operator.cookies) staff.cookies.set(name, value);
    const visitor = api.client(app);
    const first = await visitor.post(
      CHAT_API.messages,
      chatMessage('Bonjour, ma commande ?', { language, page: `/${language}` }),
    );
    expect(first.status).toBe(201);
    const [row] = await api.db().query<{ id: number }>('SELECT max(id)::integer AS id FROM chat_conversations');
    const id = row?.id as number;
    await staff.post(CONSOLE_CHAT_API.reply(id), chatMessage('Elle part demain.'));
    await staff.post(CHAT_DESK_API.note(id), chatMessage('Internal: check the warehouse'));
    return { app, staff, visitor, id };
  };

  it('lets the visitor rate a closed conversation, 1 to 5 with a comment, and refuses junk', async () => {
    const { staff, visitor, id } = await answered('fr');
    expect(await visitor.post(CHAT_ENDING_API.rating, { score: 5 })).toMatchObject({
      status: 409,
      body: { error: { code: 'CONVERSATION_OPEN' } },
    });
    await staff.post(CONSOLE_CHAT_API.close(id), {});
    for (const score of [0, 6, 2.5, '4', null]) {
      const answer = await visitor.post(CHAT_ENDING_API.rating, { score });
      expect([score, answer.status, answer.body]).toEqual([
        score,
        400,
        { error: { code: 'VALIDATION_ERROR', fields: { score: 'INVALID_RATING' } } },
      ]);
    }
    expect((await visitor.post(CHAT_ENDING_API.rating, { score: 3, comment: 'x'.repeat(1001) })).body).toMatchObject({
      error: { fields: { comment: 'MESSAGE_TOO_LONG' } },
    });
    expect((await api.client().post(CHAT_ENDING_API.rating, { score: 3 })).status).toBe(404);

    expect((await visitor.post(CHAT_ENDING_API.rating, { score: 2, comment: ' ' })).body).toEqual({
      rating: { score: 2, comment: null },
    });
    // Rating again replaces it.
    expect((await visitor.post(CHAT_ENDING_API.rating, { score: 5, comment: 'Très rapide' })).status).toBe(200);
    const rows = await api.db().query('SELECT score, comment FROM chat_ratings WHERE conversation_id = $1', [id]);
    expect(rows).toEqual([{ score: 5, comment: 'Très rapide' }]);

    const quality = (await staff.get(CHAT_DESK_API.quality)).body as unknown as QualityAnswer;
    expect(quality.weeks).toHaveLength(8);
    const thisWeek = quality.weeks.at(-1);
    expect(thisWeek?.week).toBe(lastMondays(1)[0]);
    expect(thisWeek?.ratings).toBeGreaterThanOrEqual(1);
    expect(thisWeek?.firstReplies).toBeGreaterThanOrEqual(1);
    expect(thisWeek?.medianFirstReplySeconds).toBeGreaterThanOrEqual(0);
    expect(quality.comments).toContainEqual(expect.objectContaining({ score: 5, comment: 'Très rapide' }));
    expect((await staff.get(`${CHAT_DESK_API.quality}?weeks=2`)).body.weeks).toHaveLength(2);
    for (const weeks of ['0', '53', 'x', '-1']) {
      expect((await staff.get(`${CHAT_DESK_API.quality}?weeks=${weeks}`)).status).toBe(400);
    }
    expect((await visitor.get(CHAT_DESK_API.quality)).status).toBe(401);
  });

  it("mails the transcript in the conversation's language, without the team's notes", async () => {
    const { staff, visitor, id } = await answered('fr');
    expect((await visitor.post(CHAT_ENDING_API.transcript, {})).status).toBe(409);
    await staff.post(CONSOLE_CHAT_API.close(id), {});
    expect((await visitor.post(CHAT_ENDING_API.transcript, {})).body).toEqual({
      error: { code: 'VALIDATION_ERROR', fields: { email: 'MISSING_REQUIRED_FIELD' } },
    });
    expect((await visitor.post(CHAT_ENDING_API.transcript, { email: 'nope' })).body).toMatchObject({
      error: { fields: { email: 'INVALID_EMAIL' } },
    });
    const address = `transcript-${id}@example.com`;
    const sent = await visitor.post(CHAT_ENDING_API.transcript, { email: address });
    expect(sent).toMatchObject({ status: 202, body: { email: address } });
    const mail = await api.mail().waitFor(address);
    expect(mail.subject).toBe(`Votre conversation avec ${site.brand.siteName}`);
    expect(mail.headers['content-language']).toBe('fr');
    expect(mail.text).toContain('Bonjour, ma commande ?');
    expect(mail.text).toContain('Elle part demain.');
    expect(mail.text).not.toContain('Internal');
    expect(mail.html).not.toContain('Internal');
  });

  it('opens the conversation from the mailed link in another browser, and not from a forged or expired one', async () => {
    const { app, visitor, id } = await answered('fr');
    const address = `away-${id}@example.com`;
    await visitor.post(CHAT_API.email, { email: address });
    const mail = await api.mail().waitFor(address, 0, 10_000);
    const link = mail.text.match(/https?:\/\/\S+\/api\/chat\/resume\?\S+/)?.[0];
    expect(link).toBeDefined();
    const path = new URL(link as string).pathname + new URL(link as string).search;

    const phone = api.client(app);
    const opened = await phone.request('GET', path);
    expect(opened.status).toBe(303);
    expect(opened.headers.get('Location')).toBe('/fr#chat');
    const there = await phone.get(CHAT_API.conversation);
    expect((there.body.messages as { body: string }[]).map((m) => m.body)).toEqual([
      'Bonjour, ma commande ?',
      'Elle part demain.',
    ]);
    // The first browser keeps it, and both write into the same conversation.
    await phone.post(CHAT_API.messages, chatMessage('Merci, depuis mon téléphone'));
    const first = await visitor.get(CHAT_API.conversation);
    expect((first.body.messages as { body: string }[]).at(-1)?.body).toBe('Merci, depuis mon téléphone');

    const forged = new URL(link as string);
    forged.searchParams.set('c', String(id - 1));
    const stranger = api.client(app);
    const refused = await stranger.request('GET', forged.pathname + forged.search);
    expect([refused.status, refused.headers.get('Location')]).toEqual([303, '/fr']);
    expect((await stranger.get(CHAT_API.conversation)).body.conversation).toBeNull();

    const old = new URL(resumeLink({ secret: TEST_SECRET, site }, id, 'fr', Date.now() - 15 * DAY_MS));
    const late = await stranger.request('GET', old.pathname + old.search);
    expect([late.status, late.headers.get('Location')]).toEqual([303, '/fr']);
    expect((await stranger.get(CHAT_API.conversation)).body.conversation).toBeNull();

    expect((await stranger.request('GET', `${CHAT_ENDING_API.resume}?c=1&e=x&s=y`)).status).toBe(400);
    // Once the visitor ends it, no link opens it any more.
    await visitor.post(CHAT_API.end, {});
    const afterEnd = await api.client(app).request('GET', path);
    expect(afterEnd.headers.get('Location')).toBe('/fr');
    expect((await phone.get(CHAT_API.conversation)).body.conversation).toBeNull();
  });
});
