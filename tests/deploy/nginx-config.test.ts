// The generated nginx configuration for a small build of its own: what nginx serves from disk and
// what it leaves to the instances (decision 201). test:cluster runs the real thing.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nginxSiteConfig } from '#deploy/nginx-config.ts';
import { FILE_POLICY } from '#server/http/security-headers.ts';

const siteDir = await mkdtemp(path.join(tmpdir(), 'nginx-config-'));
afterAll(() => rm(siteDir, { recursive: true, force: true }));
const files = [
  'index.html',
  'robots.txt',
  'robots.txt.br',
  'robots.txt.gz',
  'favicon.png',
  'en/index.html',
  'en/about/index.html',
  'console/index.html',
  'locales/config.json',
  'locales/en/common.json',
  'assets/entry-abc123.js',
  'assets/share/card.png',
  '.vite/manifest.json',
];
for (const file of files) {
  await mkdir(path.join(siteDir, 'client', path.dirname(file)), { recursive: true });
  await writeFile(path.join(siteDir, 'client', file), 'x');
}
// The build's inline hashes: nginx answers no page, so they must not be in its configuration.
await writeFile(path.join(siteDir, 'inline-hashes.json'), JSON.stringify({ scripts: ["'sha256-inline'"], styles: [] }));

const generate = (options: Partial<Parameters<typeof nginxSiteConfig>[0]> = {}) =>
  nginxSiteConfig({ upstreams: ['127.0.0.1:3001', '127.0.0.1:3002'], siteDir, brotli: 'off', ...options });

/** The entries of the map of files nginx serves by exact path. */
const siteFiles = (config: string) =>
  (config.match(/map \$site_request_path \$site_file \{\n([\s\S]*?)\n\}/)?.[1] ?? '')
    .split('\n')
    .map((line) => line.trim());

describe('the nginx configuration', () => {
  it('serves only the top-level files by exact path from the build: no page, no texts, no favicon, no compressed name', async () => {
    expect(siteFiles(await generate())).toEqual(['default "";', '"~^/robots[.]txt$" "/robots.txt";']);
  });

  it('leaves pages, texts, what the build lacks and its own 404s and 405s to the instances', async () => {
    const config = await generate();
    expect(config).toContain('try_files $site_file @node;');
    // Hashed files from disk, else from the instances (a share image drawn after a publish).
    expect(config).toMatch(/location \^~ \/assets\/ \{\n\s+try_files \$uri @node;/);
    expect(config).toContain('error_page 404 405 = @node;');
    expect(config).not.toMatch(/location[^\n]*\/locales\//);
    expect(config).not.toContain('@not_found');
    // The instances choose the page for a signed-out visitor and say it varies with the cookie.
    expect(config).not.toMatch(/\$cookie_signed_in|add_header Vary/);
    expect(config).toContain('gzip off;');
  });

  it('adds the file policy to what it serves itself, never the pages’ policy with the build’s hashes', async () => {
    const config = await generate();
    const policies = [...config.matchAll(/add_header Content-Security-Policy "([^"]*)" always;/g)].map(([, p]) => p);
    expect(policies).toHaveLength(3);
    expect(new Set(policies)).toEqual(new Set([FILE_POLICY]));
    expect(config).not.toContain('sha256');
    expect(config).toContain('add_header X-Content-Type-Options "nosniff" always;');
  });

  it('marks an instance down, and refuses what it cannot write', async () => {
    expect(await generate({ down: ['127.0.0.1:3002'] })).toContain(
      'server 127.0.0.1:3002 max_fails=1 fail_timeout=5s down;',
    );
    await expect(generate({ down: ['127.0.0.1:3001', '127.0.0.1:3002'] })).rejects.toThrow('must stay up');
    await expect(generate({ upstreams: ['nowhere'] })).rejects.toThrow('Not a host:port');
    await expect(generate({ siteDir: path.join(siteDir, 'missing') })).rejects.toThrow('npm run build');
  });
});
