import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeApi, TEST_SECRET } from '#tests/support/api.ts';
import { BACKUP_COMMAND_PATH, backupCommandToken } from './index.ts';

describeApi('the backup command endpoint', (api) => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });
  const call = (authorization: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
    api.app().request(BACKUP_COMMAND_PATH, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: {
        'Content-Type': 'application/json',
        ...(authorization ? { Authorization: authorization } : {}),
        ...headers,
      },
    });
  const token = `Bearer ${backupCommandToken(TEST_SECRET)}`;

  it.skipIf(api.target.kind !== 'pglite')(
    'copies the embedded database into a new folder for its owner, only with the token and never through a proxy',
    { timeout: 120_000 },
    async () => {
      const scratch = await mkdtemp(path.join(tmpdir(), 'backup-route-'));
      folders.push(scratch);
      const target = path.join(scratch, 'pglite');
      expect((await call(undefined, { target })).status).toBe(401);
      expect((await call('Bearer wrong', { target })).status).toBe(401);
      // What nginx passes on carries its headers: refused as if the path did not exist.
      expect((await call(token, { target }, { 'X-Forwarded-For': '203.0.113.9' })).status).toBe(404);
      expect((await call(token, { target: 'relative/folder' })).status).toBe(400);
      expect((await call(token, 'nothing')).status).toBe(400);

      const answer = await call(token, { target });
      expect(answer.status).toBe(200);
      const report = (await answer.json()) as { files: number; heldMs: number };
      expect(report.files).toBeGreaterThan(100);
      expect(await readdir(target)).toEqual(expect.arrayContaining(['PG_VERSION', 'base', 'pg_wal', 'pg_notify']));
      expect((await stat(target)).mode & 0o777).toBe(0o700);
      // A folder that exists is never written into.
      expect((await call(token, { target })).status).toBe(400);
      // The database serves on afterwards.
      expect(await api.db().query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    },
  );

  it.skipIf(api.target.kind !== 'postgres')('does not exist with PostgreSQL, which pg_dump backs up', async () => {
    expect((await call(token, { target: path.join(tmpdir(), 'never') })).status).toBe(404);
  });
});
