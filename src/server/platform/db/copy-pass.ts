import { constants } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** A file as it was when it was copied: a change of any of these means copying it again. */
export interface Copied {
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  /** When its copy began: a write in the same moment may carry an mtime just before it. */
  copiedAtNs: bigint;
}

/**
 * Timestamps of the file system come from a coarse clock (a few milliseconds); a file written this
 * long before its copy began counts as possibly changed during it.
 */
const CLOCK_SLACK_NS = 1_000_000_000n;

/** The files and the folders below `dir`, relative to it. */
async function listBelow(dir: string): Promise<{ files: string[]; folders: string[] }> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const relative = (entry: (typeof entries)[number]) => path.relative(dir, path.join(entry.parentPath, entry.name));
  return {
    files: entries.filter((entry) => entry.isFile()).map(relative),
    folders: entries.filter((entry) => entry.isDirectory()).map(relative),
  };
}

/**
 * Copies what changed in `source` since the last pass into `target`: files that are new, replaced
 * (another inode), of another size, or written since their copy began; and removes what is gone.
 */
export async function copyPass(
  source: string,
  target: string,
  copied: Map<string, Copied>,
  concurrency: number,
): Promise<number> {
  const { files: names, folders } = await listBelow(source);
  // Empty folders too: PostgreSQL will not start without pg_notify, pg_tblspc and the like.
  for (const folder of folders) await mkdir(path.join(target, folder), { recursive: true, mode: 0o700 });
  const present = new Set(names);
  let bytes = 0;
  const copyOne = async (name: string) => {
    const from = path.join(source, name);
    const before = await stat(from, { bigint: true }).catch(() => null);
    // Removed since the listing (a recycled log segment): the next pass sees it gone.
    if (!before) return;
    const last = copied.get(name);
    const unchanged =
      last &&
      last.ino === before.ino &&
      last.size === before.size &&
      last.mtimeNs === before.mtimeNs &&
      before.mtimeNs < last.copiedAtNs - CLOCK_SLACK_NS;
    if (unchanged) return;
    const copiedAtNs = BigInt(Date.now()) * 1_000_000n;
    await mkdir(path.dirname(path.join(target, name)), { recursive: true, mode: 0o700 });
    try {
      // A copy-on-write clone where the file system offers one (Btrfs, XFS), a plain copy elsewhere.
      await copyFile(from, path.join(target, name), constants.COPYFILE_FICLONE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return;
    }
    copied.set(name, { ino: before.ino, size: before.size, mtimeNs: before.mtimeNs, copiedAtNs });
    bytes += Number(before.size);
  };
  // Many at once: while the server is busy each await waits for a turn of its event loop, so one
  // file after another would take a turn per file.
  let next = 0;
  const worker = async () => {
    for (let name = names[next++]; name !== undefined; name = names[next++]) await copyOne(name);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  for (const name of [...copied.keys()]) {
    if (present.has(name)) continue;
    copied.delete(name);
    await rm(path.join(target, name), { force: true });
  }
  return bytes;
}
