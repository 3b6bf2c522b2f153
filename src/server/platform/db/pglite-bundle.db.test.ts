import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyOfTemplate } from '#tests/support/databases.ts';
import { compiledGivingBack, releaseFileBundle } from './pglite-bundle.ts';

const OPEN_TIMEOUT = 60_000;
const STOPWORDS = '/pglite/share/postgresql/tsearch_data/english.stop';
/** A file of the bundle outside /pglite. */
const PGPASS = '/home/postgres/.pgpass';

/** An in-memory file's contents: a view into the buffer that holds them. */
const contentsOf = (db: PGlite, file: string) =>
  (db.Module.FS.lookupPath(file, {}).node as unknown as { contents: Uint8Array }).contents;

describe('the embedded database without its file bundle', () => {
  let dataDir: string;
  let db: PGlite;
  let bundle: ArrayBufferLike;
  let bundleBytes: number;
  let stopwords: Uint8Array;
  let pgpass: Uint8Array;

  beforeAll(async () => {
    dataDir = await copyOfTemplate();
    db = await PGlite.create({ fs: new NodeFS(path.join(dataDir, 'pglite')) });
    stopwords = db.Module.FS.readFile(STOPWORDS);
    pgpass = db.Module.FS.readFile(PGPASS);
    bundle = contentsOf(db, STOPWORDS).buffer;
    bundleBytes = bundle.byteLength;
    releaseFileBundle(db);
  }, OPEN_TIMEOUT);

  afterAll(async () => {
    await db?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('frees the bundle, keeping a copy of the files a server reads and removing the others', () => {
    expect(bundle.byteLength).toBe(0);
    // The kept files share the buffer that replaced the bundle.
    const kept = contentsOf(db, STOPWORDS).buffer;
    expect(kept).toBe(contentsOf(db, '/pglite/lib/postgresql/plpgsql.so').buffer);
    expect(bundleBytes - kept.byteLength).toBeGreaterThan(3 * 1024 * 1024);
    expect(db.Module.FS.readFile(STOPWORDS)).toEqual(stopwords);
    expect(db.Module.FS.readFile(PGPASS)).toEqual(pgpass);
    expect(db.Module.FS.analyzePath('/pglite/share/postgresql/postgres.bki').exists).toBe(false);
    expect(db.Module.FS.analyzePath('/pglite/lib/postgresql/plpgsql.so').exists).toBe(true);
  });

  it('still searches in every language, runs PL/pgSQL and knows the time zones', async () => {
    const [row] = (
      await db.query<{ en: string; it: string; fr: string; de: string; nl: string; rome: string; zones: number }>(
        `SELECT to_tsvector('english', 'The runners were running')::text AS en,
                to_tsvector('italian', 'le case')::text AS it,
                to_tsvector('french', 'les maisons')::text AS fr,
                to_tsvector('german', 'die Häuser')::text AS de,
                to_tsvector('dutch', 'de huizen')::text AS nl,
                to_char(timestamptz '2026-03-29 01:30:00+00' AT TIME ZONE 'Europe/Rome', 'HH24:MI') AS rome,
                (SELECT count(*)::integer FROM pg_timezone_names WHERE name LIKE 'Asia/%') AS zones`,
      )
    ).rows;
    expect(row).toEqual({
      en: "'run':4 'runner':2",
      it: "'cas':2",
      fr: "'le':1 'maison':2",
      de: "'haus':2",
      nl: "'huiz':2",
      rome: '03:30',
      zones: expect.any(Number),
    });
    expect(row?.zones).toBeGreaterThan(50);
    await db.exec(`DO $$ BEGIN PERFORM 1; END $$`);
  });

  it('answers a statement that needs a removed file with an error, and stays usable', async () => {
    await expect(db.query(`SELECT convert_to('x', 'SJIS')`)).rejects.toThrow(/could not access file/);
    expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});

describe("PGlite's WebAssembly compiled by the server", () => {
  it('gives the file bytes back once the module is compiled', async () => {
    // The smallest module there is: its magic number and version.
    const bytes = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    const module = await compiledGivingBack(bytes);
    expect(module).toBeInstanceOf(WebAssembly.Module);
    expect(bytes.byteLength).toBe(0);
    expect(bytes.buffer.byteLength).toBe(0);
  });
});
