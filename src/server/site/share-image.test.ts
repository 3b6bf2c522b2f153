import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { ShareCard } from '#common/share-card.ts';
import { shareImageWriter } from './share-image.ts';

const cacheRoot = await mkdtemp(path.join(tmpdir(), 'share-image-'));
afterAll(() => rm(cacheRoot, { recursive: true, force: true }));
const colours = { accent: '#1d4ed8', accentText: '#ffffff' };
const card: ShareCard = { language: 'th', title: 'ยินดีต้อนรับ', siteName: 'Example', domain: 'example.com' };

it('draws an image once under a name made from its card', async () => {
  const saved: string[] = [];
  const cacheDir = path.join(cacheRoot, 'drawn');
  const write = shareImageWriter({ save: (urlPath) => void saved.push(urlPath), cacheDir, colours });
  const image = await write(card);
  expect(image).toEqual({ path: expect.stringMatching(/^\/assets\/share\/[\w-]{16}\.png$/), width: 1200, height: 630 });
  expect(await write({ ...card })).toEqual(image);
  expect(saved).toEqual([image.path]);
  expect(await readdir(cacheDir)).toEqual([path.basename(image.path)]);
});

it('leaves the drawing to the first request when asked to draw later, then draws once', async () => {
  const saved: string[] = [];
  const later = new Map<string, () => Promise<unknown>>();
  const cacheDir = path.join(cacheRoot, 'later');
  const write = shareImageWriter({
    save: (urlPath) => void saved.push(urlPath),
    cacheDir,
    colours,
    drawLater: (urlPath, draw) => void later.set(urlPath, draw),
  });
  const image = await write(card);
  expect([...later.keys()]).toEqual([image.path]);
  expect(saved).toEqual([]);
  await expect(readdir(cacheDir)).rejects.toThrow();
  const draw = later.get(image.path) as () => Promise<unknown>;
  // Two requests at once draw it once.
  expect(await Promise.all([draw(), draw()])).toEqual([image, image]);
  expect(saved).toEqual([image.path]);
  expect(await readdir(cacheDir)).toEqual([path.basename(image.path)]);
});

it('draws the logo a card names before the site name, under a name of its own', async () => {
  const drawn = new Map<string, Uint8Array>();
  const logo = new TextEncoder().encode(
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#ff0000"/></svg>',
  );
  const write = shareImageWriter({
    save: (urlPath, png) => void drawn.set(urlPath, png),
    cacheDir: path.join(cacheRoot, 'logo'),
    colours,
    logoData: (urlPath) => (urlPath === '/assets/brand/logo-x.svg' ? logo : undefined),
  });
  const plain = await write(card);
  const withLogo = await write({ ...card, logo: { path: '/assets/brand/logo-x.svg', width: 80, height: 40 } });
  expect(withLogo.path).not.toBe(plain.path);
  const { Resvg } = await import('@resvg/resvg-js');
  const pixels = (png: Uint8Array | undefined) =>
    new Resvg(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><image href="data:image/png;base64,${Buffer.from(png ?? []).toString('base64')}" width="1200" height="630"/></svg>`,
    ).render().pixels;
  const rgb = (png: Uint8Array | undefined, x: number, y: number) => {
    const offset = (y * 1200 + x) * 4;
    const image = pixels(png);
    return [image[offset], image[offset + 1], image[offset + 2]];
  };
  // A red pixel where the logo sits (x 80–208, y 66–130), on a white plate from x 68 and y 54;
  // neither on the card without it.
  expect(rgb(drawn.get(withLogo.path), 120, 100)).toEqual([255, 0, 0]);
  expect(rgb(drawn.get(withLogo.path), 72, 60)).toEqual([255, 255, 255]);
  expect(rgb(drawn.get(plain.path), 120, 100)).not.toEqual([255, 0, 0]);
  expect(rgb(drawn.get(plain.path), 72, 60)).toEqual([0x1d, 0x4e, 0xd8]);
});
