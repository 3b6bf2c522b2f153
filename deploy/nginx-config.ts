// `npm run deploy:nginx -- --upstream 127.0.0.1:3001 --upstream 127.0.0.1:3002 [options]`: writes the
// nginx configuration for a build from deploy/site.conf.template (see README.md, "Deploy").
//
//   --upstream host:port  a Node instance (repeat for each; at least one)
//   --down host:port      one of them that gets no new requests (repeatable): an instance about to
//                         be restarted in a rolling upgrade (README.md, "Upgrades")
//   --listen value        nginx's listen directive (repeatable; default 80)
//   --server-name names   server_name (default _)
//   --site-dir dir        the build, as SITE_DIR (default dist); nginx serves <dir>/client
//   --brotli auto|on|off  serve the build's .br files; needs nginx's brotli static module
//                         (Debian: libnginx-mod-http-brotli-static). auto: on when it is installed
//   --out file            where to write it (default: standard output)
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FILE_POLICY, securityHeaders } from '#server/http/security-headers.ts';

/** Where Debian's libnginx-mod-http-brotli-static puts the module. */
export const BROTLI_STATIC_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

/** The MIME types the Node server answers with (src/server/static-files.ts); test:cluster compares them. */
const TYPES: Record<string, string> = {
  'text/html': 'html',
  'text/javascript': 'js',
  'text/css': 'css',
  'application/json': 'json',
  'image/svg+xml': 'svg',
  'application/xml': 'xml',
  'text/plain': 'txt',
  'image/x-icon': 'ico',
  'image/png': 'png',
  'image/webp': 'webp',
  'font/woff2': 'woff2',
};

export interface NginxConfigOptions {
  /** host:port of each Node instance. */
  upstreams: string[];
  /** Upstreams (of `upstreams`) marked down: nginx sends them nothing new, while it finishes what it sent. */
  down?: string[];
  /** Arguments of nginx's listen directive, one per directive. */
  listen?: string[];
  serverName?: string;
  /** The build (SITE_DIR), whose client/ nginx serves files from. */
  siteDir?: string;
  brotli?: 'auto' | 'on' | 'off';
}

const TEMPLATE = new URL('./site.conf.template', import.meta.url);

/** A value nginx reads as one quoted string: no quote, backslash, or `$` (which nginx would expand). */
function quoted(value: string): string {
  if (/["\\$\n]/.test(value)) throw new Error(`Cannot write ${JSON.stringify(value)} into the nginx configuration`);
  return `"${value}"`;
}

/**
 * A map key that matches exactly this path, case included (plain keys of a map ignore case). Paths
 * of the build use only letters, digits, dots, dashes, underscores and slashes.
 */
function exactPath(urlPath: string): string {
  if (!/^[A-Za-z0-9._/-]+$/.test(urlPath))
    throw new Error(`Cannot write the path ${urlPath} into the nginx configuration`);
  return `"~^${urlPath.replaceAll('.', '[.]')}$"`;
}

/** Every file below `dir`, relative, with forward slashes. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** Top-level files the instances make again when the brand changes in the console (decision 203). */
const BRANDED_FILES = new Set(['favicon.png']);

/**
 * The exact request paths nginx answers from the build, with the file each one is: every file the
 * Node server serves by its own name outside /assets/ (which has a location of its own), such as
 * robots.txt and sitemap.xml. Not the pages nor /locales/: the instances render those again when
 * texts are published (decision 201); not the favicon, drawn from the logo set in the console. Not the HTML files by name, not the compressed
 * variants, not the build's manifest: the Node server redirects or refuses those.
 */
async function siteFiles(clientDir: string): Promise<[string, string][]> {
  return (await filesBelow(clientDir))
    .filter(
      (name) => !/\.(html|br|gz)$/.test(name) && !/^(assets|locales|\.vite)\//.test(name) && !BRANDED_FILES.has(name),
    )
    .map((name) => [`/${name}`, `/${name}`]);
}

/**
 * The headers nginx adds to what it answers itself: the Node server's for a file that is not a page
 * (decision 098). nginx answers no page, so the page policy with the build's hashes is not here:
 * the instances send it with each page.
 */
const fileHeaders = (): Record<string, string> => ({
  ...securityHeaders(),
  'Content-Security-Policy': FILE_POLICY,
});

function brotliEnabled(choice: NginxConfigOptions['brotli']): boolean {
  if (choice === 'on') return true;
  if (choice === 'off') return false;
  return existsSync(BROTLI_STATIC_MODULE);
}

/** The configuration text for one build and one set of instances. */
export async function nginxSiteConfig(options: NginxConfigOptions): Promise<string> {
  if (options.upstreams.length === 0) throw new Error('At least one --upstream host:port is needed');
  for (const upstream of options.upstreams) {
    if (!/^[A-Za-z0-9.[\]:-]+:\d{1,5}$/.test(upstream)) throw new Error(`Not a host:port: ${upstream}`);
  }
  const down = new Set(options.down ?? []);
  for (const upstream of down) {
    if (!options.upstreams.includes(upstream)) throw new Error(`--down ${upstream} is not one of the upstreams`);
  }
  if (down.size >= options.upstreams.length) throw new Error('At least one upstream must stay up');
  const siteDir = path.resolve(options.siteDir ?? 'dist');
  const clientDir = path.join(siteDir, 'client');
  if (!existsSync(path.join(clientDir, 'index.html')))
    throw new Error(`No build in ${siteDir}: run npm run build first`);

  const indent = (spaces: number, lines: string[]) => lines.map((line) => `${' '.repeat(spaces)}${line}`).join('\n');
  const headerLines = (spaces: number) =>
    indent(
      spaces,
      Object.entries(fileHeaders()).map(([name, value]) => `add_header ${name} ${quoted(value)} always;`),
    );
  const brotli = brotliEnabled(options.brotli);

  const values: Record<string, string> = {
    upstream_servers: indent(
      4,
      options.upstreams.map(
        (upstream) => `server ${upstream} max_fails=1 fail_timeout=5s${down.has(upstream) ? ' down' : ''};`,
      ),
    ),
    upstream_count: String(options.upstreams.length),
    site_files: indent(
      4,
      (await siteFiles(clientDir)).map(([urlPath, file]) => `${exactPath(urlPath)} ${quoted(file)};`),
    ),
    listen: indent(
      4,
      (options.listen ?? ['80']).map((listen) => `listen ${listen};`),
    ),
    server_name: options.serverName ?? '_',
    root: quoted(clientDir),
    types: indent(
      8,
      Object.entries(TYPES).map(([type, extension]) => `${type} ${extension};`),
    ),
    brotli: brotli
      ? '    brotli_static on;'
      : '    # brotli_static on; needs the brotli static module (Debian: libnginx-mod-http-brotli-static).',
  };
  const template = await readFile(TEMPLATE, 'utf8');
  return template
    .replace(/^( *)\{\{security_headers\}\}$/gm, (_, spaces: string) => headerLines(spaces.length))
    .replace(/\{\{(\w+)\}\}/g, (match, key: string) => {
      const value = values[key];
      if (value === undefined) throw new Error(`The template names an unknown value ${match}`);
      return value;
    });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values: args } = parseArgs({
    options: {
      upstream: { type: 'string', multiple: true, default: [] },
      down: { type: 'string', multiple: true, default: [] },
      listen: { type: 'string', multiple: true },
      'server-name': { type: 'string' },
      'site-dir': { type: 'string' },
      brotli: { type: 'string', default: 'auto' },
      out: { type: 'string' },
    },
  });
  try {
    if (!['auto', 'on', 'off'].includes(args.brotli)) throw new Error('--brotli is auto, on or off');
    const config = await nginxSiteConfig({
      upstreams: args.upstream,
      down: args.down,
      listen: args.listen,
      serverName: args['server-name'],
      siteDir: args['site-dir'],
      brotli: args.brotli as NginxConfigOptions['brotli'],
    });
    if (args.out) await writeFile(args.out, config);
    else process.stdout.write(config);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
