import { unlinkSync } from 'node:fs';
import { chmod, link, mkdir, open, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/** Owner only: what DATA_DIR and everything in it are kept at. */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
const LOCK_FILE = 'pglite.lock';
const SYNC_CONCURRENCY = 32;

/**
 * Makes `dir` owner-only (creating it, and any folder above it that is missing, that way), so that
 * nobody else may enter it whatever the files inside allow: it holds the server secret and the
 * embedded database, with password hashes and mailed codes.
 */
export async function ownerOnlyDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  await chmod(dir, DIR_MODE);
}

/**
 * Takes away what group and others may do with everything below `dir`, the embedded database's
 * folder: PGlite writes the files of a new database readable and writable by everyone.
 */
export async function restrictTree(dir: string): Promise<void> {
  await ownerOnlyDir(dir);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isDirectory() && !entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const wanted = entry.isDirectory() ? DIR_MODE : FILE_MODE;
    try {
      if (((await stat(full)).mode & 0o777) !== wanted) await chmod(full, wanted);
    } catch (error) {
      // A file the database removed since the listing (a recycled log segment) needs nothing.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * Flushes every file and folder below `dir` to the disk, folders last, so that what is there
 * survives a power cut: for a database just created, whose files were written without fsync.
 */
export async function syncTree(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const path_ = (entry: (typeof entries)[number]) => path.join(entry.parentPath, entry.name);
  const sync = async (name: string) => {
    const handle = await open(name, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  };
  // Many at once: the file system commits them together, some ten times faster than one by one.
  const inParallel = async (names: string[]) => {
    let next = 0;
    const worker = async () => {
      for (let name = names[next++]; name !== undefined; name = names[next++]) await sync(name);
    };
    await Promise.all(Array.from({ length: SYNC_CONCURRENCY }, worker));
  };
  await inParallel(entries.filter((entry) => entry.isFile()).map(path_));
  await inParallel(entries.filter((entry) => entry.isDirectory()).map(path_));
  await inParallel([dir, path.dirname(dir)]);
}

export interface DataDirLock {
  /** Frees the folder for the next process; only the lock this process wrote is removed. */
  release(): Promise<void>;
}

/** Folders this process holds, so that a second open in the same process is refused too. */
const held = new Set<string>();

interface Owner {
  pid: number;
  host: string;
}

const describe = (owner: Owner) => `process ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}`;

function parseOwner(text: string): Owner | null {
  const [pid, host] = text.split('\n');
  const number = Number(pid);
  return Number.isInteger(number) && number > 0 && host ? { pid: number, host } : null;
}

/** Whether the owner of a lock may still be running; a lock from another machine cannot be checked. */
function mayBeRunning(owner: Owner, dir: string): boolean {
  if (owner.host !== hostname()) return true;
  // Our own pid in a lock this process never took: a previous run that had the same pid (a
  // container restarted), so no one is using it now.
  if (owner.pid === process.pid) return held.has(dir);
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class DataDirInUseError extends Error {}

function inUse(dir: string, owner: Owner, file: string): DataDirInUseError {
  const local = owner.host === hostname();
  return new DataDirInUseError(
    `DATA_DIR ${dir} is in use by another server (${describe(owner)}). Two processes on one embedded ` +
      'database lose data, so this one does not start. Stop the other one first, give this one another ' +
      'DATA_DIR, or use PostgreSQL (DATABASE_URL) to run several instances.' +
      (local ? '' : ` If that process is surely gone, delete ${file}.`),
  );
}

const readOwner = async (file: string) => {
  try {
    return parseOwner(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

/**
 * Makes this process the only one using the embedded database in `dir`: a lock file naming its
 * pid and host, created whole and at once (written aside, then hard-linked into place, which fails
 * when the name exists), so two processes starting together cannot both get it. A lock left by a
 * process that is gone (killed, or the machine restarted) is taken over; one held by a running
 * process makes this one refuse to start, with a message saying what to do.
 */
export async function lockDataDir(folder: string): Promise<DataDirLock> {
  const dir = path.resolve(folder);
  await ownerOnlyDir(dir);
  const file = path.join(dir, LOCK_FILE);
  if (held.has(dir)) throw inUse(dir, { pid: process.pid, host: hostname() }, file);
  const content = `${process.pid}\n${hostname()}\n${new Date().toISOString()}\n`;
  const draft = path.join(dir, `${LOCK_FILE}.${process.pid}.${Date.now()}`);
  await writeFile(draft, content, { mode: FILE_MODE });
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await link(draft, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = await readOwner(file);
      if (owner && mayBeRunning(owner, dir)) throw inUse(dir, owner, file);
      if (attempt >= 5) throw new Error(`Could not take over the stale lock ${file}; delete it and start again.`);
      // Gone in the meantime (its owner stopped): simply try again.
      if (owner !== undefined) await takeOver(dir, file, owner);
    }
  } finally {
    await rm(draft, { force: true });
  }
  held.add(dir);

  // A lock left behind by a crash is taken over by the next start anyway; this tidies up after an
  // exit that skipped release().
  const onExit = () => {
    try {
      unlinkSync(file);
    } catch {}
  };
  process.once('exit', onExit);
  return {
    async release() {
      if (!held.delete(dir)) return;
      process.off('exit', onExit);
      if ((await readFile(file, 'utf8').catch(() => '')) === content) await unlink(file).catch(() => {});
    },
  };
}

/**
 * Removes a stale lock, unless another process got there first: whoever holds `<lock>.takeover`
 * (made like the lock itself) may remove it, after checking it still names the dead owner.
 */
async function takeOver(dir: string, file: string, stale: Owner | null): Promise<void> {
  const guard = `${file}.takeover`;
  const draft = `${guard}.${process.pid}`;
  await writeFile(draft, `${process.pid}\n${hostname()}\n`, { mode: FILE_MODE });
  try {
    try {
      await link(draft, guard);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const other = await readOwner(guard);
      // Another process is taking over right now: the next attempt finds its lock.
      if (other === undefined || (other && mayBeRunning(other, dir))) return;
      // A takeover that died half-way.
      await unlink(guard).catch(() => {});
      return;
    }
    try {
      const now = await readOwner(file);
      const same = now === stale || (now && stale && now.pid === stale.pid && now.host === stale.host);
      if (now !== undefined && same) await unlink(file).catch(() => {});
    } finally {
      await unlink(guard).catch(() => {});
    }
  } finally {
    await rm(draft, { force: true });
  }
}
