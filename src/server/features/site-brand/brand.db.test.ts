import { renderAsync } from '@resvg/resvg-js';
import { expect, it } from 'vitest';
import { BRAND_API, type BrandAnswer, MAX_LOGO_BYTES } from '#common/site-brand.ts';
import { DEFAULT_SITE_CONFIG } from '#common/site-config.ts';
import { describeApi, type TestClient } from '#tests/support/api.ts';
import { giveSecondFactor } from '#tests/support/second-factor.ts';
import { SiteBrand } from './site-brand.ts';

const SQUARE =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><rect width="120" height="60" fill="#0b6e4f"/></svg>';

describeApi('the brand in the console', (api) => {
  const staff = async (role: 'admin' | 'editor' | 'operator') => {
    const member = await api.member();
    await api.db().query('UPDATE accounts SET role = $2 WHERE email = $1', [member.person.email, role]);
    await giveSecondFactor(api.db(), member.person.email);
    return member.client;
  };
  const put = (client: TestClient, body: unknown) => client.request('PUT', BRAND_API.brand, body);
  const sendLogo = async (client: TestClient, type: string, body: Uint8Array | string) => {
    const response = await client.fetch('PUT', BRAND_API.logo, body, { 'Content-Type': type });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {} };
  };

  it('is for admins only: an editor or an operator is refused', async () => {
    for (const role of ['editor', 'operator'] as const) {
      const client = await staff(role);
      expect((await client.get(BRAND_API.brand)).status).toBe(403);
      expect((await put(client, { brand: { siteName: 'Mine' } })).status).toBe(403);
      expect((await sendLogo(client, 'image/svg+xml', SQUARE)).status).toBe(403);
    }
  });

  it('changes the name, the colour and the legal facts, checked as config.json is', async () => {
    const admin = await staff('admin');
    const before = (await admin.get(BRAND_API.brand)).body as unknown as BrandAnswer;
    expect(before.missing).toContain('company.legalName');

    const pale = await put(admin, { appearance: { accent: '#f5c518' } });
    expect(pale.status).toBe(400);
    expect(pale.body).toEqual({
      error: { code: 'BRAND_COLOUR_CONTRAST', fields: { 'appearance.accent': 'BRAND_COLOUR_CONTRAST' } },
    });
    const badEmail = await put(admin, { company: { email: 'not an address' } });
    expect(badEmail.status).toBe(400);
    expect((badEmail.body as { error: { fields: Record<string, string> } }).error.fields).toHaveProperty(
      'company.email',
    );
    expect((await put(admin, { nonsense: {} })).status).toBe(400);

    const changed = await put(admin, {
      brand: { siteName: 'Bakery Rossi' },
      appearance: { accent: '#0b6e4f' },
      company: { legalName: 'Panificio Rossi S.r.l.', email: 'ciao@rossi.example' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const now = changed.body as unknown as BrandAnswer;
    expect(now.config.brand.siteName).toBe('Bakery Rossi');
    expect(now.config.appearance.accent).toBe('#0b6e4f');
    expect(now.config.company.legalName).toBe('Panificio Rossi S.r.l.');
    expect(now.missing).not.toContain('company.legalName');
    expect(now.settings).toMatchObject({ brand: { siteName: 'Bakery Rossi' } });

    // Another instance of the same database takes it on its next refresh.
    const elsewhere = new SiteBrand({
      db: api.db(),
      site: structuredClone(DEFAULT_SITE_CONFIG),
      texts: { texts: () => ({}), tree: () => ({}), editedParts: () => [] },
    });
    await elsewhere.refresh();
    expect(elsewhere.site.brand.siteName).toBe('Bakery Rossi');
    expect(elsewhere.site.company.email).toBe('ciao@rossi.example');

    // null puts config.json's own back.
    const back = (await put(admin, { brand: null, appearance: null, company: null })).body as unknown as BrandAnswer;
    expect(back.config.brand.siteName).toBe(DEFAULT_SITE_CONFIG.brand.siteName);
    expect(back.config.appearance).toEqual({ accent: null, logo: null });
  });

  it('takes a PNG or a plain SVG logo with its texts, and refuses anything else', async () => {
    const admin = await staff('admin');
    const png = (await renderAsync(SQUARE)).asPng();
    const taken = await sendLogo(admin, 'image/png', png);
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    const logo = (taken.body as unknown as BrandAnswer).config.appearance.logo;
    expect(logo).toMatchObject({ width: 80, height: 40 });
    expect(logo?.path).toMatch(/^\/assets\/brand\/logo-[\w-]{16}\.png$/);

    const alt = await put(admin, { logoAlt: { en: 'Bakery Rossi', th: 'เบเกอรี่รอสซี' } });
    expect((alt.body as unknown as BrandAnswer).config.appearance.logo?.alt).toEqual({
      en: 'Bakery Rossi',
      th: 'เบเกอรี่รอสซี',
    });

    const refused: [string, string | Uint8Array, number, string][] = [
      ['image/svg+xml', SQUARE.replace('<rect', '<script>alert(1)</script><rect'), 400, 'LOGO_UNSAFE'],
      ['image/svg+xml', SQUARE.replace('<rect', '<rect onload="alert(1)"'), 400, 'LOGO_UNSAFE'],
      ['image/svg+xml', SQUARE.replace('<rect', '<image href="https://evil.example/x.png"/><rect'), 400, 'LOGO_UNSAFE'],
      ['image/svg+xml', 'just text', 400, 'LOGO_NOT_IMAGE'],
      ['image/png', 'GIF89a not a png at all', 400, 'LOGO_NOT_IMAGE'],
      ['image/png', new Uint8Array(MAX_LOGO_BYTES + 1), 413, 'LOGO_TOO_LARGE'],
      ['text/plain', 'hello', 415, 'INVALID_REQUEST'],
      ['application/json', '{}', 400, 'LOGO_NOT_IMAGE'],
    ];
    for (const [type, body, status, code] of refused) {
      const answer = await sendLogo(admin, type, body);
      expect(answer.status, `${type} ${String(body).slice(0, 40)}`).toBe(status);
      expect((answer.body as { error: { code: string } }).error.code).toBe(code);
    }

    const svg = await sendLogo(admin, 'image/svg+xml', SQUARE);
    expect((svg.body as unknown as BrandAnswer).config.appearance.logo?.path).toMatch(/\.svg$/);

    // Mail shows it as a PNG (mail clients show no SVG) 40 pixels high, drawn at twice that, with its texts.
    const instance = new SiteBrand({
      db: api.db(),
      site: structuredClone(DEFAULT_SITE_CONFIG),
      texts: { texts: () => ({}), tree: () => ({}), editedParts: () => [] },
    });
    await instance.refresh();
    const mailLogo = await instance.mailLogo();
    expect(mailLogo).toMatchObject({ width: 80, height: 40, alt: { en: 'Bakery Rossi', th: 'เบเกอรี่รอสซี' } });
    // The PNG's own size, from its header (IHDR).
    const header = Buffer.from(mailLogo?.png ?? []);
    expect([header.readUInt32BE(16), header.readUInt32BE(20)]).toEqual([160, 80]);
    const removed = await admin.request('DELETE', BRAND_API.logo, {});
    expect((removed.body as unknown as BrandAnswer).config.appearance.logo).toBeNull();
    await instance.refresh();
    expect(await instance.mailLogo()).toBeUndefined();
  });

  it('leaves alone what config.json pins', async () => {
    const admin = await staff('admin');
    const pinnedApp = api.app({ site: { ...DEFAULT_SITE_CONFIG, pinned: ['brand', 'appearance'] } });
    const client = api.client(pinnedApp);
    (client as unknown as { cookies: Map<string, string> }).cookies = (
      admin as unknown as { cookies: Map<string, string> }
    ).cookies;
    const refused = await put(client, { brand: { siteName: 'Other' } });
    expect(refused.status).toBe(409);
    expect((refused.body as { error: { code: string } }).error.code).toBe('PINNED_BY_CONFIG');
    expect((await sendLogo(client, 'image/svg+xml', SQUARE)).status).toBe(409);
    expect((await put(client, { company: { phone: '+39 06 1234567' } })).status).toBe(200);
    await put(admin, { company: null });
  });
});
