import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * Files of PGlite's bundle that a running server never reads: what initdb reads to make a new
 * database (made in a child process of its own, see create-pglite.ts), the files for building
 * extensions, replication's libraries, and the conversions between other encodings and UTF-8 (the
 * database and its one client speak UTF-8). A statement that needed one would fail with PostgreSQL's
 * "could not access file".
 */
const UNREAD = [
  /^\/pglite\/share\/postgresql\/[^/]+\.(bki|sql|sample)$/,
  /^\/pglite\/share\/postgresql\/sql_features\.txt$/,
  /^\/pglite\/lib\/postgresql\/pgxs\//,
  /^\/pglite\/lib\/postgresql\/[a-z0-9_]+_and_[a-z0-9_]+\.so$/,
  /^\/pglite\/lib\/postgresql\/(libpqwalreceiver|pgoutput)\.so$/,
];

type EmscriptenFs = PGlite['Module']['FS'];
interface FileNode {
  mode: number;
  contents?: unknown;
}

/** Every file of the in-memory file system below `dir`, without entering mounted folders (the data). */
function* filesBelow(fs: EmscriptenFs, dir: string): Generator<{ path: string; node: FileNode }> {
  for (const name of fs.readdir(dir)) {
    if (name === '.' || name === '..') continue;
    const path = `${dir === '/' ? '' : dir}/${name}`;
    const node = fs.lookupPath(path, { follow: false }).node as unknown as FileNode;
    if (fs.isMountpoint(node as never)) continue;
    if (fs.isDir(node.mode)) yield* filesBelow(fs, path);
    else if (fs.isFile(node.mode)) yield { path, node };
  }
}

/** A file every bundle holds: its contents are a view into the bundle's buffer. */
const IN_THE_BUNDLE = '/pglite/bin/postgres';

/**
 * Gives back the memory of PGlite's file bundle (6 MiB, decision 264). PGlite reads the bundle into
 * one buffer that it keeps for the life of the process, and its in-memory files are views into it.
 * Here the files a server reads are copied into a buffer of their own (2.4 MiB), the others are
 * removed, and the bundle is emptied, which frees it whoever still refers to it.
 */
export function releaseFileBundle(db: PGlite): void {
  const fs = db.Module.FS;
  const anchor = fs.analyzePath(IN_THE_BUNDLE).object as unknown as FileNode | null;
  if (!(anchor?.contents instanceof Uint8Array)) return;
  const bundle = anchor.contents.buffer;
  const kept: { node: FileNode; contents: Uint8Array }[] = [];
  // From the root, not /pglite: the bundle also holds /home/postgres/.pgpass, which must not be
  // left a view into an emptied buffer.
  for (const { path, node } of filesBelow(fs, '/')) {
    if (!(node.contents instanceof Uint8Array) || node.contents.buffer !== bundle) continue;
    if (UNREAD.some((unread) => unread.test(path))) fs.unlink(path);
    else kept.push({ node, contents: node.contents });
  }
  // One buffer for all of them: a copy each would be some 650 allocations, a third more memory in all.
  const compact = new Uint8Array(kept.reduce((sum, { contents }) => sum + contents.byteLength, 0));
  let offset = 0;
  for (const { node, contents } of kept) {
    compact.set(contents, offset);
    node.contents = compact.subarray(offset, offset + contents.byteLength);
    offset += contents.byteLength;
  }
  giveBack(bundle);
}

/**
 * Frees a buffer's memory now, whatever still refers to it (it is detached), rather than at a full
 * garbage collection, which an idle server may not reach for long.
 */
function giveBack(buffer: ArrayBufferLike): void {
  // ArrayBuffer.prototype.transfer is ES2024, which the shared TypeScript settings leave out for the browser's sake.
  (buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
}

/** A WebAssembly module compiled from `bytes`, which are given back: compiling copies them. */
export async function compiledGivingBack(bytes: Uint8Array<ArrayBuffer>): Promise<WebAssembly.Module> {
  try {
    return await WebAssembly.compile(bytes);
  } finally {
    giveBack(bytes.buffer);
  }
}

/**
 * PGlite's WebAssembly, for `PGlite.create`'s `pgliteWasmModule`. Left to PGlite, the 9 MB buffer
 * it reads the file into stayed resident until a full garbage collection, which some starts did
 * not reach while idle (decision 267).
 */
export async function compiledPglite(): Promise<WebAssembly.Module> {
  const main = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return compiledGivingBack(await readFile(path.join(path.dirname(main), 'pglite.wasm')));
}
