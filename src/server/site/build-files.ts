import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gunzipSync, gzip } from 'node:zlib';
import { type InlineHashes, inlineCodeOf } from '#server/http/security-headers.ts';
import { listFiles } from './list-files.ts';

/**
 * A file served from memory with what it keeps of itself: the file as it is only when it has no
 * gzip copy (images, small files). A text file is kept compressed alone, 7 MB less for the built
 * site (decision 256), and `bodyOf` unpacks it for the rare client that takes neither encoding.
 */
export type StaticFile = {
  type: string;
  etag: string;
  cacheControl: string;
  br?: Uint8Array;
  /** A page's inline code its policy allows (decision 250); none on other files. */
  inline?: InlineHashes;
} & ({ body: Uint8Array; gzip?: undefined } | { body?: undefined; gzip: Uint8Array });

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.jpg': 'image/jpeg',
  '.woff2': 'font/woff2',
};

/** Hashed build output never changes under its name; everything else is checked on each use. */
function cacheControlFor(urlPath: string): string {
  return urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

const etagOf = (body: Uint8Array) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

const isPage = (urlPath: string) => urlPath.endsWith('.html');
const decoder = new TextDecoder();

/**
 * A file a running server made (a page rendered again after a publish, its texts, a share image),
 * as the build would have written it: brotli and gzip beside a text file.
 */
export async function madeFile(
  urlPath: string,
  content: string | Uint8Array,
  options: {
    /** Brotli's quality: 11 (its best, as the build) unless speed matters more, as for a first answer. */
    brotliQuality?: number;
    /** For a page: the inline code its renderer made, which its policy then allows. */
    allowed?: InlineHashes;
  } = {},
): Promise<StaticFile> {
  const { brotliQuality = 11, allowed } = options;
  const body = typeof content === 'string' ? Buffer.from(content) : content;
  const type = TYPES[path.extname(urlPath)] ?? 'application/octet-stream';
  const text = !type.startsWith('image/');
  const [br, gzip] = text
    ? await Promise.all([
        brotli(body, {
          params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
        }),
        gzipped(body, { level: 9 }),
      ])
    : [undefined, undefined];
  const inline = allowed && isPage(urlPath) ? inlineCodeOf(decoder.decode(body), allowed) : undefined;
  return { type, etag: etagOf(body), cacheControl: cacheControlFor(urlPath), ...keptBodies(body, br, gzip), inline };
}

/** What a file keeps in memory: its compressed copies, or itself when it has no gzip copy. */
function keptBodies(body: Uint8Array, br: Uint8Array | undefined, gzip: Uint8Array | undefined) {
  return gzip ? { br, gzip } : { body, br };
}

/** A file's content as it is. */
export function bodyOf(file: StaticFile): Uint8Array {
  return file.body ?? gunzipSync(file.gzip);
}

/**
 * The built site, read into memory once at start: every file keyed by its URL path, with its
 * precompressed variants. Requests are answered from this map only, so no request path ever
 * reaches the file system, and answers cost no disk access. `allowed` is the inline code the
 * build made (dist/inline-hashes.json).
 */
export async function loadStaticFiles(clientDir: string, allowed: InlineHashes): Promise<Map<string, StaticFile>> {
  const files = new Map<string, StaticFile>();
  const names = (await listFiles(clientDir)).filter((name) => !name.startsWith('.vite/'));
  const available = new Set(names);
  for (const name of names) {
    if (name.endsWith('.br') || name.endsWith('.gz')) continue;
    const full = path.join(clientDir, name);
    const body = await readFile(full);
    const urlPath = `/${name}`;
    const br = available.has(`${name}.br`) ? await readFile(`${full}.br`) : undefined;
    const gzip = available.has(`${name}.gz`) ? await readFile(`${full}.gz`) : undefined;
    files.set(urlPath, {
      type: TYPES[path.extname(name)] ?? 'application/octet-stream',
      etag: etagOf(body),
      cacheControl: cacheControlFor(urlPath),
      ...keptBodies(body, br, gzip),
      inline: isPage(urlPath) ? inlineCodeOf(decoder.decode(body), allowed) : undefined,
    });
  }
  return files;
}

/**
 * A built page's HTML by its path (`/en/login`) with the inline code its policy allows, or
 * undefined without a build (tests, development).
 */
export type PageHtml = (pagePath: string) => { html: string; inline: InlineHashes } | undefined;

/** The built pages among the files, as text: the account forms answer a plain post with one (form-answer-page.ts). */
export function pageHtmlFrom(files: Map<string, StaticFile>): PageHtml {
  return (pagePath) => {
    const file = files.get(`${pagePath}/index.html`);
    return file && { html: decoder.decode(bodyOf(file)), inline: file.inline ?? { scripts: [], styles: [] } };
  };
}

/** The best encoding the client accepts among those a file has. */
export function pickEncoding(file: StaticFile, acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = (acceptEncoding ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || Number.parseFloat(q.split('=')[1] ?? '1') > 0)
    .map(([name]) => name?.trim().toLowerCase());
  if (file.br && accepted.includes('br')) return 'br';
  if (file.gzip && accepted.includes('gzip')) return 'gzip';
  return null;
}
