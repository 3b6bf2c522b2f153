import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hitRateLimit } from '#server/http/rate-limit-counter.ts';
import { ROOT } from '#server/platform/site-config.ts';
import { copyOfTemplate } from '#tests/support/databases.ts';
import { DataDirInUseError, lockDataDir } from './data-dir.ts';
import { openDatabase } from './database.ts';

const OPEN_TIMEOUT = 60_000;
/** Creating an embedded database (initdb in WebAssembly) is CPU work: on two busy cores, well over 30 s. */
const CREATE_TIMEOUT = 120_000;
const folders: string[] = [];
const children: ChildProcess[] = [];

/** An empty folder, where the database is created as on a first start. */
const newDataDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'data-dir-test-'));
  folders.push(dir);
  return dir;
};

/** A folder holding a database already made, for tests of what happens after creation. */
const madeDataDir = async () => {
  const dir = await copyOfTemplate();
  folders.push(dir);
  return dir;
};

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Another process holding the database of `dataDir`, once it says it is ready. */
async function holder(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'tests/support/hold-database.ts'), dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`The holder exited with ${code}`)));
  });
  return child;
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

/** Every folder and file below `dir`, with its permission bits. */
async function modes(dir: string) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const found = [{ name: '.', dir: true, mode: (await stat(dir)).mode & 0o777 }];
  for (const entry of entries) {
    const full = path.join(entry.parentPath, entry.name);
    found.push({ name: path.relative(dir, full), dir: entry.isDirectory(), mode: (await stat(full)).mode & 0o777 });
  }
  return found;
}

describe('one process per embedded database', () => {
  it('refuses a second process on the same folder, saying which one holds it', { timeout: OPEN_TIMEOUT }, async () => {
    const dataDir = await madeDataDir();
    const first = await holder(dataDir);
    const second = openDatabase({ dataDir });
    await expect(second).rejects.toThrow(DataDirInUseError);
    await expect(second).rejects.toThrow(`DATA_DIR ${dataDir} is in use by another server (process ${first.pid})`);
    await expect(second).rejects.toThrow(/DATABASE_URL/);
  });

  it('takes over the folder of a process that died, and finds its data', { timeout: OPEN_TIMEOUT }, async () => {
    const dataDir = await madeDataDir();
    await killed(await holder(dataDir));
    const db = await openDatabase({ dataDir });
    try {
      expect(await db.query("SELECT unique_key AS key FROM jobs WHERE kind = 'test.held'")).toEqual([{ key: 'held' }]);
    } finally {
      await db.close();
    }
  });

  it('refuses a second open in the same process, and frees the folder at close', async () => {
    const dataDir = await newDataDir();
    const lock = await lockDataDir(dataDir);
    await expect(lockDataDir(dataDir)).rejects.toThrow(DataDirInUseError);
    await lock.release();
    await (await lockDataDir(dataDir)).release();
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('takes over a lock that names no process, or one this machine no longer runs', async () => {
    const dataDir = await newDataDir();
    for (const content of ['', 'garbage', `999999999\n${(await import('node:os')).hostname()}\n`]) {
      await writeFile(path.join(dataDir, 'pglite.lock'), content);
      await (await lockDataDir(dataDir)).release();
    }
  });

  it('lets only one of many processes starting at once have the folder', async () => {
    const dataDir = await newDataDir();
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => lockDataDir(dataDir)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results) if (result.status === 'fulfilled') await result.value.release();
  });
});

describe('the embedded database on disk', () => {
  it('keeps the data folder and everything in it for its owner only', { timeout: CREATE_TIMEOUT }, async () => {
    const dataDir = await newDataDir();
    await fs.promises.chmod(dataDir, 0o777);
    for (let start = 0; start < 2; start++) {
      const db = await openDatabase({ dataDir });
      await db.query(`INSERT INTO jobs (kind, unique_key) SELECT 'test.rows', 'k' || n FROM generate_series(1, 2000) AS n
        ON CONFLICT DO NOTHING`);
      // While it runs, and after it stopped.
      expect((await modes(dataDir)).filter((entry) => (entry.mode & 0o077) !== 0)).toEqual([]);
      await db.close();
      const loose = (await modes(dataDir)).filter((entry) => entry.mode !== (entry.dir ? 0o700 : 0o600));
      expect(loose).toEqual([]);
    }
  });

  it('flushes each commit to the disk (fsync), so a power cut loses nothing acknowledged', {
    timeout: OPEN_TIMEOUT,
  }, async () => {
    const db = await openDatabase({ dataDir: await madeDataDir() });
    const fsync = vi.spyOn(fs, 'fsyncSync');
    try {
      await db.query(`INSERT INTO jobs (kind) VALUES ('test.durable')`);
      expect(fsync).toHaveBeenCalled();
      fsync.mockClear();
      await db.transaction(async (tx) => {
        await tx.query(`INSERT INTO jobs (kind) VALUES ('test.inside')`);
        expect(fsync).not.toHaveBeenCalled();
      });
      expect(fsync).toHaveBeenCalled();
      // Rate limit counts are not kept through a crash: counting one waits for no flush, which on
      // this database would hold up the thread that answers requests.
      // (The first statement after a flush may write out what the database had left in memory.)
      await hitRateLimit(db, 'not-flushed', 5, 60);
      fsync.mockClear();
      for (let hit = 0; hit < 3; hit++) expect((await hitRateLimit(db, 'not-flushed', 5, 60)).allowed).toBe(true);
      expect(fsync).not.toHaveBeenCalled();
    } finally {
      fsync.mockRestore();
      await db.close();
    }
  });
});
