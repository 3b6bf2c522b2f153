import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSiteConfig, ROOT, readTexts } from '#server/platform/site-config.ts';
import { copyOfTemplate } from '#tests/support/databases.ts';

// `npm run dev` as a developer starts it: the script in its own process on a free port, with its
// own database. Nothing is edited; the pages, Vite's client and the API must answer.
const START_TIMEOUT_MS = 60_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function waitForHealth(base: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the development server exited:\n${output()}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the development server did not start:\n${output()}`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

describe('npm run dev', () => {
  let child: ChildProcess;
  let dataDir: string;
  let base: string;
  let log = '';

  beforeAll(async () => {
    dataDir = await copyOfTemplate();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
    for (const name of ['DATABASE_URL', 'SMTP_URL', 'POSTHOG_HOST', 'POSTHOG_KEY', 'OTEL_EXPORTER_OTLP_ENDPOINT']) {
      delete env[name];
    }
    child = spawn(process.execPath, ['scripts/build/dev.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk) => {
      log += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      log += chunk;
    });
    await waitForHealth(base, child, () => log);
  }, START_TIMEOUT_MS + 5_000);

  afterAll(async () => {
    if (child) await stop(child);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 20_000);

  it('renders each page from the sources with Vite’s client and hot reload', async () => {
    const site = await loadSiteConfig();
    const texts = await readTexts(site.brand, ['en']);
    // Each with the sheet its module brings beyond the critical one, inlined as the build does.
    for (const [pathname, ns, ownSheet] of [
      ['/en', 'home', 'src/client/pages/home/home.css'],
      ['/en/about', 'about', 'src/client/lib/company.css'],
    ] as const) {
      const response = await fetch(`${base}${pathname}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await response.text();
      const meta = texts.en?.[ns]?.meta as { title: string };
      expect(html).toContain(`<title>${escapeHtml(meta.title)}</title>`);
      expect(html).toContain('<script type="module" src="/@vite/client"></script>');
      expect(html).toContain('from "/@react-refresh"');
      // The app loads from the sources, and the stylesheets are elements Vite's client updates.
      expect(html).toContain('data-modules="/src/client/app/entry-client.tsx"');
      expect(html).toMatch(/<style data-vite-dev-id="[^"]*\/src\/client\/app\/critical\.css">[^<]*\S/);
      expect(html).toContain(`<style data-vite-dev-id="${ROOT}/${ownSheet}">`);
      expect(html.match(/<style data-vite-dev-id=/g)).toHaveLength(2);
      // The page is prerendered into #root as the build does it, not an empty shell.
      expect(html).toMatch(/<div id="root">\s*<[a-z]/);
    }
  }, 30_000);

  it('serves the modules, the texts and the API, and redirects as the production server does', async () => {
    const entry = await fetch(`${base}/src/client/app/entry-client.tsx`);
    expect(entry.status).toBe(200);
    expect(entry.headers.get('content-type')).toMatch(/javascript/);
    expect(await entry.text()).toContain('hydrateRoot');

    const locale = await fetch(`${base}/locales/en/common.json`);
    expect(locale.status).toBe(200);

    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const redirect = await fetch(`${base}/about`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/en/about');

    const missing = await fetch(`${base}/locales/en/nothing.json`);
    expect(missing.status).toBe(404);

    // The account is sign-in without the signed-in cookie, as in production (decision 092).
    const signedOut = await (await fetch(`${base}/de/account`)).text();
    expect(signedOut).toContain('data-path="/de/login"');
    const signedIn = await (await fetch(`${base}/de/account`, { headers: { Cookie: 'signed_in=1' } })).text();
    expect(signedIn).toContain('data-path="/de/account"');
  }, 30_000);
});
