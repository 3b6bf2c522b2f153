import { expect, it } from 'vitest';
import {
  type NamespaceTexts,
  type PublishPlan,
  TEXTS_API,
  type TextHistoryEntry,
  type TextsOverview,
  withNamespace,
} from '#common/site-texts.ts';
import { readTexts } from '#server/platform/site-config.ts';
import type { PagePublisher } from '#server/site/live-pages.ts';
import { describeApi } from '#tests/support/api.ts';
import { giveSecondFactor } from '#tests/support/second-factor.ts';
import { SiteTexts } from './site-texts.ts';

describeApi('the texts editor', (api) => {
  const staff = async (role: 'admin' | 'editor' | 'operator' | 'member' = 'admin') => {
    const member = await api.member();
    await api.db().query('UPDATE accounts SET role = $2 WHERE email = $1', [member.person.email, role]);
    await giveSecondFactor(api.db(), member.person.email);
    return member.client;
  };
  const draft = withNamespace(TEXTS_API.draft, 'home');
  const texts = async (client: Awaited<ReturnType<typeof staff>>, namespace: string, language: string) => {
    const answer = await client.get(`${withNamespace(TEXTS_API.namespace, namespace)}?language=${language}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as unknown as NamespaceTexts;
  };
  const entry = async (client: Awaited<ReturnType<typeof staff>>, language: string, key: string) =>
    (await texts(client, 'home', language)).texts.find((text) => text.key === key);
  const publishAll = async (client: Awaited<ReturnType<typeof staff>>) => {
    const answer = await client.post(TEXTS_API.publish, { confirmPlaceholders: true });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as unknown as PublishPlan;
  };

  it('answers only editors and admins with a second factor', async () => {
    expect((await api.client().get(TEXTS_API.overview)).status).toBe(401);
    for (const role of ['member', 'operator'] as const) {
      const answer = await (await staff(role)).get(TEXTS_API.overview);
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ error: { code: 'FORBIDDEN' } });
    }
    expect((await (await staff('editor')).get(TEXTS_API.overview)).status).toBe(200);
    const member = await api.member();
    await api.db().query(`UPDATE accounts SET role = 'admin' WHERE email = $1`, [member.person.email]);
    expect((await member.client.get(TEXTS_API.overview)).body).toEqual({ error: { code: 'SECOND_FACTOR_REQUIRED' } });
  });

  it('counts each namespace and page per language, and shows the English text beside each one', async () => {
    const admin = await staff();
    const answer = await admin.get(TEXTS_API.overview);
    expect(answer.status).toBe(200);
    const overview = answer.body as unknown as TextsOverview;
    const home = overview.namespaces.find((part) => part.namespace === 'home');
    const total = (counts: { missing: number; review: number; done: number }) =>
      counts.missing + counts.review + counts.done;
    expect(home && total(home.counts.en)).toBeGreaterThan(10);
    expect(home && total(home.counts.th)).toBe(home && total(home.counts.en));
    // The home page shows the shared texts and its own.
    const page = overview.pages.find((entry) => entry.page === 'home');
    expect(page?.namespaces).toEqual(['common', 'home']);
    // What still stands in for the company's own words, per page and language.
    const homeTh = overview.placeholders.find((entry) => entry.page === 'home' && entry.language === 'th');
    expect(homeTh?.keys).toContain('home:hero.lead');
    expect(homeTh?.keys).not.toContain('home:hero.title');
    const privacy = overview.placeholders.find((entry) => entry.page === 'privacy' && entry.language === 'de');
    expect(privacy?.keys).toContain('config.json:company.legalName');
    const th = await entry(admin, 'th', 'hero.title');
    expect(th).toMatchObject({
      english: 'Welcome to {{siteName}}',
      value: 'ยินดีต้อนรับสู่ {{siteName}}',
      draft: null,
      status: 'done',
      edited: false,
      placeholders: ['siteName'],
    });
  });

  it('refuses junk and texts that break what the English one needs, with a code', async () => {
    const admin = await staff();
    const cases: [unknown, number, string][] = [
      [{ language: 'th', key: 'hero.title', value: 'ยินดีต้อนรับ {{siteNam}}' }, 400, 'TEXT_PLACEHOLDERS'],
      [{ language: 'th', key: 'hero.title', value: 'x'.repeat(5001) }, 400, 'VALIDATION_ERROR'],
      [{ language: 'th', key: 'hero.nothing', value: 'x' }, 404, 'TEXT_NOT_FOUND'],
      [{ language: 'xx', key: 'hero.title', value: 'x' }, 400, 'VALIDATION_ERROR'],
      [{ language: 'th', key: '../etc', value: 'x' }, 400, 'VALIDATION_ERROR'],
      [{ language: 'th', key: 'hero', value: 'x' }, 404, 'TEXT_NOT_FOUND'],
      ['not json', 400, 'INVALID_REQUEST'],
    ];
    for (const [body, status, code] of cases) {
      const answer = await admin.request('PUT', draft, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect((answer.body as { error: { code: string } }).error.code).toBe(code);
    }
    const console = await admin.request('PUT', withNamespace(TEXTS_API.draft, 'console'), {
      language: 'th',
      key: 'title',
      value: 'x',
    });
    expect(console.status).toBe(404);
    expect((await admin.get(`${TEXTS_API.preview}?page=nowhere&language=th`)).status).toBe(400);
  });

  it('publishes a draft, keeps its history, marks translations for review and undoes it', async () => {
    const admin = await staff();
    const saved = await admin.request('PUT', draft, { language: 'en', key: 'hero.secondary', value: 'About us' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ key: 'hero.secondary', draft: 'About us', value: 'Who we are' });

    const plan = (await admin.get(TEXTS_API.publish)).body as unknown as PublishPlan;
    expect(plan.drafts).toContainEqual({ namespace: 'home', language: 'en', key: 'hero.secondary', value: 'About us' });
    expect(plan.pages).toContainEqual({ page: 'home', languages: ['en'] });
    // The home page still has the release's stand-in texts: publishing asks first.
    expect(plan.placeholders).toContainEqual(expect.objectContaining({ page: 'home', language: 'en' }));
    const refused = await admin.post(TEXTS_API.publish, {});
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: { code: 'PLACEHOLDERS_LEFT' } });

    await publishAll(admin);
    expect(await entry(admin, 'en', 'hero.secondary')).toMatchObject({ value: 'About us', edited: true, draft: null });
    // Every translation was written against the old English text.
    expect(await entry(admin, 'it', 'hero.secondary')).toMatchObject({ status: 'review' });

    // A new Italian text, written against the new English one, is done again.
    await admin.request('PUT', draft, { language: 'it', key: 'hero.secondary', value: 'Chi siamo, in breve' });
    await publishAll(admin);
    expect(await entry(admin, 'it', 'hero.secondary')).toMatchObject({ status: 'done', value: 'Chi siamo, in breve' });

    const history = async () =>
      (
        (await admin.get(`${withNamespace(TEXTS_API.history, 'home')}?language=en&key=hero.secondary`)).body as {
          history: TextHistoryEntry[];
        }
      ).history;
    expect((await history()).map((item) => item.value)).toEqual(['About us']);

    const undo = withNamespace(TEXTS_API.undo, 'home');
    expect((await admin.post(undo, { language: 'en', key: 'hero.secondary' })).status).toBe(200);
    expect(await entry(admin, 'en', 'hero.secondary')).toMatchObject({ value: 'Who we are', edited: false });
    expect((await history()).map((item) => item.value)).toEqual([null, 'About us']);
    const none = await admin.post(undo, { language: 'nl', key: 'hero.secondary' });
    expect(none.status).toBe(409);
    expect(none.body).toEqual({ error: { code: 'NOTHING_TO_UNDO' } });
  });

  it('lists a text’s history newest first also past its ninth publication', async () => {
    const admin = await staff();
    const values = Array.from({ length: 11 }, (_, index) => `Who we are, take ${index + 1}`);
    for (const value of values) {
      await admin.request('PUT', draft, { language: 'de', key: 'hero.secondary', value });
      await publishAll(admin);
    }
    const listed = await admin.get(`${withNamespace(TEXTS_API.history, 'home')}?language=de&key=hero.secondary`);
    const history = (listed.body as { history: TextHistoryEntry[] }).history;
    expect(history.map((item) => item.value)).toEqual(values.toReversed());
  });

  it('writes published texts into the texts mail is made from, on every instance of the database', async () => {
    const admin = await staff();
    const elsewhere = new SiteTexts({ db: api.db(), shipped: await readTexts() });
    const homeLink = () => (elsewhere.texts.nl?.common as { nav: { home: string } } | undefined)?.nav.home;
    expect(homeLink()).toBe('Startpagina');
    await admin.request('PUT', withNamespace(TEXTS_API.draft, 'common'), {
      language: 'nl',
      key: 'nav.home',
      value: 'Begin',
    });
    await publishAll(admin);
    await elsewhere.refresh();
    expect(homeLink()).toBe('Begin');

    // Dropping a draft leaves the published text.
    await admin.request('PUT', withNamespace(TEXTS_API.draft, 'common'), {
      language: 'nl',
      key: 'nav.home',
      value: 'X',
    });
    const dropped = await admin.request('DELETE', withNamespace(TEXTS_API.draft, 'common'), {
      language: 'nl',
      key: 'nav.home',
    });
    expect(dropped.status).toBe(200);
    expect((await texts(admin, 'common', 'nl')).texts.find((text) => text.key === 'nav.home')).toMatchObject({
      value: 'Begin',
      draft: null,
    });
  });

  it('offers the chat’s texts visitors see and the mail it sends, not the console’s, and hands them to every instance', async () => {
    const editor = await staff('editor');
    const chatDraft = withNamespace(TEXTS_API.draft, 'chat');
    const overview = (await editor.get(TEXTS_API.overview)).body as unknown as TextsOverview;
    const group = overview.namespaces.find((part) => part.namespace === 'chat');
    expect(group?.counts.th.done).toBeGreaterThan(40);
    // The chat is on every page of the layout, in none's HTML: no page lists it.
    expect(overview.pages.filter((page) => page.namespaces.includes('chat'))).toEqual([]);

    const keys = (await texts(editor, 'chat', 'th')).texts.map((text) => text.key);
    expect(keys).toEqual(expect.arrayContaining(['launcher.open', 'panel.title', 'ending.title', 'mail.subject']));
    // The console's screens read chat.json too: their texts are not site texts.
    expect(keys.filter((key) => key.startsWith('console.') || key.startsWith('desk.'))).toEqual([]);
    const cases: [unknown, number, string][] = [
      [{ language: 'th', key: 'console.title', value: 'แชท' }, 404, 'TEXT_NOT_FOUND'],
      [{ language: 'th', key: 'panel.emailSaved', value: 'เราจะส่งคำตอบไปที่ {{mail}}' }, 400, 'TEXT_PLACEHOLDERS'],
      [{ language: 'th', key: 'launcher.unread', value: 'ข้อความใหม่' }, 400, 'TEXT_PLACEHOLDERS'],
      // Thai has no singular: only `_other`.
      [{ language: 'th', key: 'alertMail.intro_one', value: '{{visitor}} รอหนึ่งนาที' }, 404, 'TEXT_NOT_FOUND'],
    ];
    for (const [body, status, code] of cases) {
      const answer = await editor.request('PUT', chatDraft, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect((answer.body as { error: { code: string } }).error.code).toBe(code);
    }
    // An English singular may leave the count out.
    const singular = { language: 'en', key: 'alertMail.intro_one', value: '{{visitor}} has waited a minute.' };
    expect((await editor.request('PUT', chatDraft, singular)).status).toBe(200);
    expect((await editor.request('DELETE', chatDraft, singular)).status).toBe(200);

    // Another instance, with what its pages would be rendered from.
    const updates: string[][] = [];
    const publisher: PagePublisher = {
      update: async (changed) => void updates.push([...changed]),
      rebuild: async () => {},
      preview: async () => ({ html: '', policy: '' }),
      drawShareImage: () => undefined,
    };
    const elsewhere = new SiteTexts({ db: api.db(), shipped: await readTexts(), publisher });
    await elsewhere.refresh();
    const openLabel = () => (elsewhere.texts.th?.chat as { launcher: { open: string } } | undefined)?.launcher.open;
    const shipped = openLabel();

    const value = 'คุยกับเราได้เลย';
    const saved = await editor.request('PUT', chatDraft, { language: 'th', key: 'launcher.open', value });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // The chat's preview reads the namespace with the draft; a visitor may not.
    const drafted = `${withNamespace(TEXTS_API.drafted, 'chat')}?language=th`;
    const preview = await editor.get(drafted);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('cache-control')).toBe('no-store');
    expect(preview.body).toMatchObject({ launcher: { open: value }, console: expect.any(Object) });
    expect((await api.client().get(drafted)).status).toBe(401);
    expect((await editor.get(`${withNamespace(TEXTS_API.drafted, 'console')}?language=th`)).status).toBe(404);

    const plan = (await editor.get(TEXTS_API.publish)).body as unknown as PublishPlan;
    expect(plan.drafts).toContainEqual({ namespace: 'chat', language: 'th', key: 'launcher.open', value });
    expect(plan.pages).toEqual([]);
    await publishAll(editor);
    await elsewhere.refresh();
    expect(openLabel()).toBe(value);
    expect(updates.at(-1)).toEqual(['th/chat']);
    // What every page names, so that its chat reads /locales/th/chat.json rather than its chunk.
    expect(elsewhere.catalog.editedParts()).toEqual(['th/chat']);
    expect(elsewhere.catalog.tree('th', 'chat')).toMatchObject({ launcher: { open: value } });

    const undo = await editor.post(withNamespace(TEXTS_API.undo, 'chat'), { language: 'th', key: 'launcher.open' });
    expect(undo.status).toBe(200);
    await elsewhere.refresh();
    expect(openLabel()).toBe(shipped);
    expect(elsewhere.catalog.editedParts()).toEqual([]);
  });
});
