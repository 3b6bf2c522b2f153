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

/**
 * Gives back the memory of PGlite's file bundle (6 MiB, decision 264). PGlite reads the bundle into
 * one buffer that it keeps for the life of the process, and its in-memory files are views into it.
 * Here the files a server reads are copied into a buffer of their own (2.4 MiB), the others are
 * removed, and the bundle is emptied, which frees it whoever still refers to it. Returns the bytes
 * given back.
 */
export function releaseFileBundle(db: PGlite): number {
  const fs = db.Module.FS;
  const files = [...filesBelow(fs, '/')].filter(({ node }) => node.contents instanceof Uint8Array);
  // The bundle is the buffer the most files are views into.
  const counts = new Map<ArrayBufferLike, number>();
  for (const { node } of files) {
    const buffer = (node.contents as Uint8Array).buffer;
    counts.set(buffer, (counts.get(buffer) ?? 0) + 1);
  }
  const bundle = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!(bundle instanceof ArrayBuffer) || counts.get(bundle) === 1) return 0;
  const kept: { node: FileNode; contents: Uint8Array }[] = [];
  for (const { path, node } of files) {
    const contents = node.contents as Uint8Array;
    if (contents.buffer !== bundle) continue;
    if (UNREAD.some((unread) => unread.test(path))) fs.unlink(path);
    else kept.push({ node, contents });
  }
  // One buffer for all of them: a copy each would be some 650 allocations, a third more memory in all.
  const compact = new Uint8Array(kept.reduce((sum, { contents }) => sum + contents.byteLength, 0));
  let offset = 0;
  for (const { node, contents } of kept) {
    compact.set(contents, offset);
    node.contents = compact.subarray(offset, offset + contents.byteLength);
    offset += contents.byteLength;
  }
  const freed = bundle.byteLength - compact.byteLength;
  // ArrayBuffer.prototype.transfer is ES2024, which the shared TypeScript settings leave out for the browser's sake.
  (bundle as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
  return freed;
}
