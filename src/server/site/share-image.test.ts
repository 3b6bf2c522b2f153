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

it('does not draw an image a running server serves already (the build made it)', async () => {
  const saved: string[] = [];
  const asked: string[] = [];
  const cacheDir = path.join(cacheRoot, 'served');
  const write = shareImageWriter({
    save: (urlPath) => void saved.push(urlPath),
    cacheDir,
    colours,
    served: (urlPath) => asked.push(urlPath) > 0,
  });
  const image = await write(card);
  expect(asked).toEqual([image.path]);
  expect(saved).toEqual([]);
  await expect(readdir(cacheDir)).rejects.toThrow();
});
