import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#server/platform/db/database.ts';
import { freshAddress } from '#tests/support/api.ts';
import { targets } from '#tests/support/databases.ts';
import { startInstance } from '#tests/support/instances.ts';
import { schemaOf } from '#tests/support/postgres-schemas.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const SECRET = 'instances-test-secret-of-at-least-32-characters';
const WRITERS = 4;

/** `npm run backup` or `npm run restore` as it is run on the server, with the exit code and what it printed. */
function command(name: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [`scripts/bin/${name}.ts`, ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

/** A page view with its own uuid, as the browser's analytics sends it; the uuid once it was answered 200. */
async function write(base: string): Promise<string | null> {
  const uuid = randomUUID();
  const body = JSON.stringify([
    {
      event: '$pageview',
      uuid,
      timestamp: new Date().toISOString(),
      properties: { distinct_id: 'v1.backup', $current_url: 'http://localhost/en', token: 'first-party' },
    },
  ]);
  const response = await fetch(`${base}/api/posthog/e/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': freshAddress() },
    body,
  }).catch(() => null);
  await response?.arrayBuffer();
  return response?.status === 200 ? uuid : null;
}

/** Folders and files below `dir` that group or others may use. */
async function notOwnerOnly(dir: string): Promise<string[]> {
  const loose: string[] = [];
  if (((await stat(dir)).mode & 0o077) !== 0) loose.push(dir);
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (((await stat(full)).mode & 0o077) !== 0) loose.push(full);
  }
  return loose;
}

const scratches: string[] = [];
afterAll(async () => {
  for (const dir of scratches) await rm(dir, { recursive: true, force: true });
});

for (const target of targets) {
  describe.skipIf(target.skip)(`npm run backup and npm run restore on ${target.name}`, () => {
    it('a backup taken while writes go on restores every write acknowledged before it began, into an empty target only', {
      timeout: 240_000,
    }, async () => {
      const store = await target.createStore();
      const scratch = await mkdtemp(path.join(tmpdir(), 'site-backup-test-'));
      scratches.push(scratch);
      const url = store.options.databaseUrl;
      const dataDir = url ? path.join(scratch, 'data') : store.options.dataDir;
      const server = await startInstance({ DATA_DIR: dataDir, ...(url ? { DATABASE_URL: url } : {}) });
      const port = new URL(server.url).port;
      const commandEnv = {
        PORT: port,
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SERVER_SECRET: SECRET,
        ...(url ? { DATABASE_URL: url } : {}),
      };
      let stopWriting = false;
      try {
        // Writers that never pause: each write's uuid is kept once the server answered it.
        const acknowledged: string[] = [];
        const waiting: { count: number; resolve: () => void }[] = [];
        const acknowledgedCount = (count: number) =>
          new Promise<void>((resolve) => (acknowledged.length >= count ? resolve() : waiting.push({ count, resolve })));
        const writers = Array.from({ length: WRITERS }, async () => {
          while (!stopWriting) {
            const uuid = await write(server.url);
            if (!uuid) continue;
            acknowledged.push(uuid);
            for (const waiter of waiting.filter(({ count }) => acknowledged.length >= count)) {
              waiting.splice(waiting.indexOf(waiter), 1);
              waiter.resolve();
            }
          }
        });
        await acknowledgedCount(40);

        const before = [...acknowledged];
        const folder = path.join(scratch, 'backups', 'one');
        const backup = await command('backup', [folder], commandEnv);
        const during = acknowledged.length - before.length;
        expect(backup.output).toContain(`Backup written to ${folder}`);
        expect(backup.code).toBe(0);
        // The backup ran while the server took writes, which is what the test is about.
        expect(during).toBeGreaterThan(0);
        await acknowledgedCount(before.length + during + 20);
        stopWriting = true;
        await Promise.all(writers);

        expect(await notOwnerOnly(folder)).toEqual([]);
        expect(JSON.parse(await readFile(path.join(folder, 'backup.json'), 'utf8'))).toMatchObject({
          kind: target.kind,
          secretFromEnvironment: true,
        });
        expect((await readFile(path.join(folder, 'SERVER_SECRET'), 'utf8')).trim()).toBe(SECRET);
        await server.stop();

        // A target holding data is refused, with a message saying why, and left as it was.
        const refused = await command('restore', [folder], commandEnv);
        expect(refused.code).not.toBe(0);
        expect(refused.output).toMatch(url ? /already holds \d+ tables/ : /is not empty/);

        // The data is gone (a lost disk, a dropped database); the restore puts it back.
        const restoredDir = path.join(scratch, 'restored');
        if (url) {
          const schema = schemaOf(url);
          const admin = new pg.Client({ connectionString: url });
          await admin.connect();
          await admin.query(`DROP SCHEMA ${pg.escapeIdentifier(schema)} CASCADE`);
          await admin.end();
        }
        const restored = await command('restore', [folder], { ...commandEnv, DATA_DIR: restoredDir });
        expect(restored.output).toContain('it opens');
        expect(restored.code).toBe(0);
        // SERVER_SECRET unset: the restored server finds the same key in DATA_DIR.
        expect(
          Buffer.from(await readFile(path.join(restoredDir, 'server-secret'), 'utf8'), 'base64url').toString(),
        ).toBe(SECRET);

        const db = await openDatabase({ dataDir: restoredDir, databaseUrl: url });
        try {
          const rows = await db.query<{ uuid: string }>(
            'SELECT uuid FROM analytics_events WHERE uuid = ANY($1::text[])',
            [acknowledged],
          );
          const kept = new Set(rows.map((row) => row.uuid));
          expect(before.filter((uuid) => !kept.has(uuid))).toEqual([]);
          // Nothing acknowledged after the backup ended can be in it.
          expect(kept.size).toBeLessThanOrEqual(before.length + during);
        } finally {
          await db.close();
        }
        if (!url) expect(await notOwnerOnly(restoredDir)).toEqual([]);
      } finally {
        stopWriting = true;
        await server.stop();
        await store.drop();
      }
    });
  });
}
