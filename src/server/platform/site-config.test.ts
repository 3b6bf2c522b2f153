import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSiteConfig, ownAddress } from './site-config.ts';

const dir = await mkdtemp(path.join(tmpdir(), 'site-config-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function configFile(content: object) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify(content));
  return file;
}

describe('the public address', () => {
  it('is the server’s own when config.json names none, so mailed links reach this server', async () => {
    const file = await configFile({ brand: { siteName: 'Acme', domain: 'acme.test' } });
    const site = await loadSiteConfig({ file, defaultSiteUrl: ownAddress('0.0.0.0', 4321) });
    expect(site.siteUrl).toBe('http://localhost:4321');
    expect(site.brand.siteName).toBe('Acme');
  });

  it('is the configured one when config.json names it', async () => {
    const file = await configFile({ siteUrl: 'https://acme.test/' });
    expect((await loadSiteConfig({ file, defaultSiteUrl: ownAddress('0.0.0.0', 4321) })).siteUrl).toBe(
      'https://acme.test',
    );
  });

  it('is the server’s own when config.json keeps the address the project ships, whatever the port', async () => {
    const shipped = await loadSiteConfig({ defaultSiteUrl: ownAddress('0.0.0.0', 4000) });
    expect(shipped.siteUrl).toBe('http://localhost:4000');
    const file = await configFile({ siteUrl: 'http://localhost:3000/' });
    expect((await loadSiteConfig({ file, defaultSiteUrl: ownAddress('127.0.0.1', 4600) })).siteUrl).toBe(
      'http://127.0.0.1:4600',
    );
    // The build, which passes no address of its own, keeps it for canonical links.
    expect((await loadSiteConfig({ file })).siteUrl).toBe('http://localhost:3000');
  });

  it('names the address the server listens on, or this machine when it listens on all', () => {
    expect(ownAddress('0.0.0.0', 3000)).toBe('http://localhost:3000');
    expect(ownAddress('::', 8080)).toBe('http://localhost:8080');
    expect(ownAddress('127.0.0.1', 4600)).toBe('http://127.0.0.1:4600');
    expect(ownAddress('::1', 4600)).toBe('http://[::1]:4600');
  });
});
