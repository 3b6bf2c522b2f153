import sharp from 'sharp';
import { expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '#common/site-config.ts';
import { MAX_PICTURE_BYTES, PICTURES_API, type PicturesAnswer } from '#common/site-pictures.ts';
import { SiteBrand } from '#server/features/site-brand/index.ts';
import type { AssetFile, PagePublisher } from '#server/site/live-pages.ts';
import { describeApi, type TestClient } from '#tests/support/api.ts';
import { testPhoto } from '#tests/support/pictures.ts';
import { giveSecondFactor } from '#tests/support/second-factor.ts';

const ascii = (bytes: Uint8Array, from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
/** What a file's first bytes say it is. */
const kindOf = (bytes: Uint8Array) =>
  ascii(bytes, 4, 12) === 'ftypavif'
    ? 'avif'
    : ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP'
      ? 'webp'
      : bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff
        ? 'jpeg'
        : 'other';

describeApi('the pages’ pictures in the console', (api) => {
  const staff = async (role: 'admin' | 'editor' | 'operator') => {
    const member = await api.member();
    await api.db().query('UPDATE accounts SET role = $2 WHERE email = $1', [member.person.email, role]);
    await giveSecondFactor(api.db(), member.person.email);
    return member.client;
  };
  const upload = async (client: TestClient, slot: 'home' | 'about', type: string, body: Uint8Array | string) => {
    const response = await client.fetch('PUT', PICTURES_API.picture(slot), body, { 'Content-Type': type });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {} };
  };
  const files = async () =>
    api
      .db()
      .query<{ slot: string; format: string; width: number; bytes: Uint8Array }>(
        'SELECT slot, format, width, bytes FROM site_picture_variants ORDER BY slot, format, width',
      );
  const codeOf = (answer: { body: unknown }) => (answer.body as { error: { code: string } }).error.code;

  it('is for editors and admins: an operator or a member is refused', async () => {
    const photo = await testPhoto({ width: 1000, height: 700 });
    const operator = await staff('operator');
    const { client: member } = await api.member();
    for (const client of [operator, member]) {
      expect((await client.get(PICTURES_API.pictures)).status).toBe(403);
      expect((await upload(client, 'home', 'image/jpeg', photo)).status).toBe(403);
      expect((await client.request('PUT', PICTURES_API.alt('home'), { alt: { en: 'A field' } })).status).toBe(403);
      expect((await client.request('DELETE', PICTURES_API.picture('home'), {})).status).toBe(403);
    }
    expect(await files()).toEqual([]);
  }, 60_000);

  it('makes AVIF, WebP and a JPEG of an upload, upright and without its EXIF, served by every instance', async () => {
    const editor = await staff('editor');
    // Taken with the phone turned: stored 1400 × 1000, shown 1000 × 1400.
    const photo = await testPhoto({
      width: 1400,
      height: 1000,
      orientation: 6,
      exif: { IFD0: { Make: 'Acme', Model: 'Phone 9' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '41/1 53/1 0/1' } },
    });
    expect((await sharp(photo).metadata()).exif).toBeDefined();

    const taken = await upload(editor, 'home', 'image/jpeg', photo);
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    const home = (taken.body as PicturesAnswer).pictures.home;
    const named = /^\/assets\/pictures\/home-[\w-]{16}-(\d+)\.(avif|webp|jpg)$/;
    expect(home).toMatchObject({ width: 960, height: 1344, alt: {} });
    expect(home?.src).toMatch(named);
    expect(home?.src).toMatch(/-960\.jpg$/);
    expect(home?.sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp']);
    for (const source of home?.sources ?? []) {
      const entries = source.srcset.split(', ').map((entry) => entry.split(' '));
      expect(entries.map(([, width]) => width)).toEqual(['480w', '960w', '1000w']);
      for (const [path] of entries) expect(path).toMatch(named);
    }

    const stored = await files();
    expect(stored.map(({ format, width }) => `${format} ${width}`)).toEqual([
      'avif 480',
      'avif 960',
      'avif 1000',
      'jpeg 960',
      'webp 480',
      'webp 960',
      'webp 1000',
    ]);
    for (const file of stored) {
      const bytes = new Uint8Array(file.bytes);
      expect(kindOf(bytes), `${file.format} ${file.width}`).toBe(file.format);
      const read = await sharp(bytes).metadata();
      expect(read.width).toBe(file.width);
      expect(read.height).toBeGreaterThan(read.width);
      expect(read.exif).toBeUndefined();
      expect(Buffer.from(bytes).includes('Acme')).toBe(false);
    }

    // Another instance on the same database serves the same configuration and hands the files to its renderer.
    const rendered: AssetFile[][] = [];
    const onlyPages: string[][] = [];
    const publisher: PagePublisher = {
      update: async () => {},
      preview: async () => ({ html: '', policy: '' }),
      drawShareImage: () => undefined,
      rebuild: async (_texts, _logo, assets = [], only = []) => {
        rendered.push([...assets]);
        onlyPages.push([...only]);
      },
    };
    const elsewhere = new SiteBrand({
      db: api.db(),
      site: structuredClone(DEFAULT_SITE_CONFIG),
      texts: { texts: () => ({}), tree: () => ({}), editedParts: () => [] },
      publisher,
    });
    await elsewhere.refresh();
    expect(elsewhere.site.appearance?.pictures?.home).toEqual(home);
    expect(rendered).toHaveLength(1);
    // Only the picture changed: its own page alone is rendered again, for no other carries it.
    expect(onlyPages).toEqual([['home']]);
    const paths = (rendered[0] ?? []).map((asset) => asset.path).sort();
    const served = [
      home?.src,
      ...(home?.sources ?? []).flatMap((s) => s.srcset.split(', ').map((e) => e.split(' ')[0])),
    ];
    expect(paths).toEqual(served.sort());
    // Nothing changed: no second render.
    await elsewhere.refresh();
    expect(rendered).toHaveLength(1);

    const removed = await editor.request('DELETE', PICTURES_API.picture('home'), {});
    expect(removed.status).toBe(200);
    expect((removed.body as unknown as PicturesAnswer).pictures).toEqual({});
    expect(await files()).toEqual([]);
  }, 120_000);

  it('takes a PNG with its texts per language, and refuses what is not a picture it can serve', async () => {
    const admin = await staff('admin');
    const png = await testPhoto({ width: 960, height: 540, format: 'png' });
    const taken = await upload(admin, 'about', 'image/png', png);
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect((taken.body as PicturesAnswer).pictures.about).toMatchObject({ width: 960, height: 540 });

    const alt = await admin.request('PUT', PICTURES_API.alt('about'), {
      alt: { en: 'Our bakery at dawn', th: 'ร้านเบเกอรี่ของเรายามเช้า', fr: '  ' },
    });
    expect(alt.status).toBe(200);
    // Anyone reads the pictures in force: the app going to a page its first page did not carry.
    const shown = await api.client().get(PICTURES_API.shown);
    expect(shown.status).toBe(200);
    expect((shown.body as unknown as PicturesAnswer).pictures).toEqual(
      (alt.body as unknown as PicturesAnswer).pictures,
    );
    expect((alt.body as unknown as PicturesAnswer).pictures.about?.alt).toEqual({
      en: 'Our bakery at dawn',
      th: 'ร้านเบเกอรี่ของเรายามเช้า',
    });
    expect(((await admin.get(PICTURES_API.pictures)).body as unknown as PicturesAnswer).pictures.about?.alt.en).toBe(
      'Our bakery at dawn',
    );
    expect((await admin.request('PUT', PICTURES_API.alt('about'), { alt: { xx: 'no' } })).status).toBe(400);
    expect((await admin.request('PUT', PICTURES_API.alt('home'), { alt: { en: 'none yet' } })).status).toBe(404);

    const narrow = await testPhoto({ width: 800, height: 600 });
    const refused: [string, string | Uint8Array, number, string][] = [
      ['image/jpeg', 'not a picture at all', 400, 'PICTURE_NOT_IMAGE'],
      ['image/png', 'GIF89a\x01\x00\x01\x00\x00\x00\x00;', 400, 'PICTURE_NOT_IMAGE'],
      ['image/jpeg', png.subarray(0, 200), 400, 'PICTURE_NOT_IMAGE'],
      ['application/json', '{}', 400, 'PICTURE_NOT_IMAGE'],
      ['text/plain', 'hello', 415, 'INVALID_REQUEST'],
      ['image/jpeg', new Uint8Array(MAX_PICTURE_BYTES + 1), 413, 'PICTURE_TOO_LARGE'],
      ['image/jpeg', narrow, 400, 'PICTURE_TOO_SMALL'],
    ];
    for (const [type, body, status, code] of refused) {
      const answer = await upload(admin, 'home', type, body);
      expect(answer.status, `${type} ${String(body).slice(0, 30)}`).toBe(status);
      expect(codeOf(answer)).toBe(code);
    }
    const elsewhere = await admin.fetch('PUT', '/api/console/pictures/contact', png, { 'Content-Type': 'image/png' });
    expect(elsewhere.status).toBe(404);
    // None of it reached the pictures.
    const now = (await admin.get(PICTURES_API.pictures)).body as unknown as PicturesAnswer;
    expect(Object.keys(now.pictures)).toEqual(['about']);
  }, 120_000);
});
