import { expect, it } from 'vitest';
import { CHAT_API } from '#common/chat-api.ts';
import { CHAT_DESK_API, type SearchAnswer } from '#common/chat-desk-api.ts';
import { describeApi, type TestClient } from '#tests/support/api.ts';
import { chatMessage, signedInOperator } from '#tests/support/chat.ts';

describeApi('console search over chats and contact messages', (api) => {
  const searchAs = async (client: TestClient, q: string) => {
    const answer = await client.get(`${CHAT_DESK_API.search}?q=${encodeURIComponent(q)}`);
    expect([q, answer.status]).toEqual([q, 200]);
    return answer.body as unknown as SearchAnswer;
  };
  const chatBodies = (answer: SearchAnswer) => answer.chats.map((hit) => hit.excerpt);

  it("finds words with each language's stemming, and Thai as plain text", async () => {
    const { client: operator } = await signedInOperator(api);
    const said: [string, string][] = [
      ['en', 'When will the deliveries for order 7731 arrive?'],
      ['de', 'Die Lieferung ist zu groß für den Briefkasten.'],
      ['it', 'La spedizione è arrivata rotta.'],
      ['fr', 'Je voudrais annuler mes commandes.'],
      ['nl', 'Mijn bestellingen zijn nog niet binnen.'],
      ['th', 'สินค้าจะจัดส่งถึงบ้านพรุ่งนี้หรือไม่'],
    ];
    for (const [language, body] of said) {
      const visitor = api.client();
      expect(
        (await visitor.post(CHAT_API.messages, chatMessage(body, { language, page: `/${language}` }))).status,
      ).toBe(201);
    }
    const found = async (q: string) => chatBodies(await searchAs(operator, q));
    expect(await found('delivery')).toContain('When will the deliveries for order 7731 arrive?');
    expect(await found('Lieferungen')).toContain('Die Lieferung ist zu groß für den Briefkasten.');
    expect(await found('gross')).toContain('Die Lieferung ist zu groß für den Briefkasten.');
    expect(await found('spedizioni')).toContain('La spedizione è arrivata rotta.');
    expect(await found('commande')).toContain('Je voudrais annuler mes commandes.');
    expect(await found('bestelling')).toContain('Mijn bestellingen zijn nog niet binnen.');
    expect(await found('จัดส่ง')).toContain('สินค้าจะจัดส่งถึงบ้านพรุ่งนี้หรือไม่');
    expect(await found('พรุ่งนี้')).toContain('สินค้าจะจัดส่งถึงบ้านพรุ่งนี้หรือไม่');
    // Stemming does not make everything match.
    expect(await found('Briefmarke')).toEqual([]);
    expect(await found('7731')).toEqual(['When will the deliveries for order 7731 arrive?']);
  });

  it('finds a visitor by address or name, and contact messages by sender and words', async () => {
    const { client: operator } = await signedInOperator(api);
    const { client: member, person } = await api.member();
    await member.post(CHAT_API.messages, chatMessage('A question from a member', { language: 'en' }));
    const visitor = api.client();
    await visitor.post(CHAT_API.messages, chatMessage('Hallo', { language: 'de' }));
    await visitor.post(CHAT_API.email, { email: 'erika.search@example.com' });
    await api.db().query(
      `INSERT INTO contact_messages (language, name, email, subject, body) VALUES
         ('de', 'Erika Muster', 'erika.search@example.com', 'support', 'Meine Rechnungen fehlen seit März.'),
         ('th', 'สมชาย', 'somchai.search@example.com', 'question', 'ขอใบแจ้งหนี้ย้อนหลังได้ไหม'),
         ('en', 'Olaf', 'olaf.search@example.com', 'question', 'Nothing to see here.')`,
    );

    const byAddress = await searchAs(operator, 'erika.search@example.com');
    expect(byAddress.chats.map((hit) => [hit.visitor, hit.excerpt])).toEqual([['erika.search@example.com', 'Hallo']]);
    expect(byAddress.contact.map((hit) => hit.name)).toEqual(['Erika Muster']);

    const byName = await searchAs(operator, person.name);
    expect(byName.chats[0]).toMatchObject({ visitor: person.name, excerpt: 'A question from a member' });

    expect((await searchAs(operator, 'Rechnung')).contact.map((hit) => hit.email)).toEqual([
      'erika.search@example.com',
    ]);
    expect((await searchAs(operator, 'ใบแจ้งหนี้')).contact.map((hit) => hit.email)).toEqual([
      'somchai.search@example.com',
    ]);
    expect((await searchAs(operator, 'somchai')).contact).toHaveLength(1);
    // A LIKE wildcard typed in the box is a plain character.
    expect((await searchAs(operator, '%%')).contact).toEqual([]);
  });

  it('refuses junk queries with 4xx and a code, and anyone not on the staff', async () => {
    const { client: operator } = await signedInOperator(api);
    const { client: member } = await api.member();
    expect((await operator.get(CHAT_DESK_API.search)).body).toEqual({
      error: { code: 'VALIDATION_ERROR', fields: { q: 'MISSING_REQUIRED_FIELD' } },
    });
    expect((await operator.get(`${CHAT_DESK_API.search}?q=%20a%20`)).body).toEqual({
      error: { code: 'VALIDATION_ERROR', fields: { q: 'SEARCH_TOO_SHORT' } },
    });
    expect((await operator.get(`${CHAT_DESK_API.search}?q=${'x'.repeat(201)}`)).status).toBe(400);
    // Text-search syntax typed by hand is taken as words, never as an error.
    for (const q of ['!!! & | :*', "o'reilly", '"unclosed', '-', '()<->']) {
      expect((await operator.get(`${CHAT_DESK_API.search}?q=${encodeURIComponent(q)}`)).status).toBe(
        q === '-' ? 400 : 200,
      );
    }
    expect((await member.get(`${CHAT_DESK_API.search}?q=hello`)).status).toBe(403);
    expect((await api.client().get(`${CHAT_DESK_API.search}?q=hello`)).status).toBe(401);
  });
});
