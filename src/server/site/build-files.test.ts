import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, loadStaticFiles, madeFile, pageHtmlFrom, type StaticFile } from './build-files.ts';

const PAGE = '<!doctype html><html><body>สวัสดี</body></html>';
let dir: string;
let files: Map<string, StaticFile>;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'build-files-'));
  await writeFile(path.join(dir, 'index.html'), PAGE);
  await writeFile(path.join(dir, 'index.html.gz'), gzipSync(PAGE));
  await writeFile(path.join(dir, 'index.html.br'), brotliCompressSync(PAGE));
  await writeFile(path.join(dir, 'small.txt'), 'ok');
  await writeFile(path.join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  files = await loadStaticFiles(dir, { scripts: [], styles: [] });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the built files in memory', () => {
  it('keeps a text file compressed only, and unpacks it when asked', () => {
    const page = files.get('/index.html') as StaticFile;
    expect(page.body).toBeUndefined();
    expect(page.br).toBeDefined();
    expect(Buffer.from(bodyOf(page)).toString()).toBe(PAGE);
    expect(pageHtmlFrom(files)('')?.html).toBe(PAGE);
  });

  it('keeps a file as it is when it has no compressed copy', () => {
    expect(Buffer.from(bodyOf(files.get('/small.txt') as StaticFile)).toString()).toBe('ok');
    expect((files.get('/logo.png') as StaticFile).body).toHaveLength(4);
  });

  it('keeps a file the server makes as the build would', async () => {
    const made = await madeFile('/th/index.html', PAGE, { brotliQuality: 1 });
    expect(made.body).toBeUndefined();
    expect(Buffer.from(bodyOf(made)).toString()).toBe(PAGE);
    const image = await madeFile('/assets/share/a.png', new Uint8Array([1, 2, 3]));
    expect(image.body).toEqual(new Uint8Array([1, 2, 3]));
  });
});
