// `npm run backup -- [FOLDER]`: a consistent copy of the site's data while the server runs and
// serves, with the server secret beside it, in FOLDER (default backups/site-<time>; it must not
// exist), for its owner only. With the embedded database the running server makes the copy (no
// other process may open its folder), or, when none runs, the command copies the folder itself;
// with PostgreSQL it runs pg_dump. `npm run restore -- FOLDER` puts it back (docs/decisions/170).

import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  BACKUP_COMMAND_PATH,
  type BackupManifest,
  backupCommandToken,
  copyStoppedPglite,
  dumpPostgres,
  finishBackup,
  newBackupFolder,
  PGLITE_FOLDER,
} from '#server/features/backup/index.ts';
import type { SnapshotReport } from '#server/platform/db/pglite-snapshot.ts';
import { readEnv } from '#server/platform/env.ts';
import { loadServerSecret } from '#server/platform/secrets.ts';

/** Asks the running server for the copy; null when no server answers on this machine's PORT. */
async function fromRunningServer(target: string, secret: Buffer): Promise<SnapshotReport | null> {
  const env = readEnv();
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  let response: Response;
  try {
    response = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${env.PORT}${BACKUP_COMMAND_PATH}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${backupCommandToken(secret)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ target }),
    });
  } catch {
    return null;
  }
  if (!response.ok) throw new Error(`The server on port ${env.PORT} refused the backup (${response.status}).`);
  return (await response.json()) as SnapshotReport;
}

const stamp = () =>
  new Date()
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.\d+Z$/, 'Z');
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const args = process.argv.slice(2);
  if (args.length > 1 || args[0]?.startsWith('-')) throw new Error('Usage: npm run backup -- [FOLDER]');
  process.umask(0o077);
  const env = readEnv();
  const folder = path.resolve(args[0] ?? path.join('backups', `site-${stamp()}`));
  await mkdir(env.DATA_DIR, { recursive: true, mode: 0o700 });
  const secret = await loadServerSecret(env.DATA_DIR, env.SERVER_SECRET);
  await newBackupFolder(folder);
  try {
    const manifest: BackupManifest = {
      format: 1,
      kind: env.DATABASE_URL ? 'postgres' : 'pglite',
      createdAt: new Date().toISOString(),
      secretFromEnvironment: Boolean(env.SERVER_SECRET),
    };
    let line: string;
    if (env.DATABASE_URL) {
      manifest.schema = (await dumpPostgres(env.DATABASE_URL, folder)).schema;
      line = `pg_dump of schema "${manifest.schema}"`;
    } else {
      const target = path.join(folder, PGLITE_FOLDER);
      const running = await fromRunningServer(target, secret);
      const report = running ?? (await copyStoppedPglite(env.DATA_DIR, target));
      line = running
        ? `copied by the running server: ${report.files} files, ${megabytes(report.bytes)} in ${(report.totalMs / 1000).toFixed(1)} s, ` +
          `the database held for ${Math.round(report.heldMs)} ms`
        : `no server answered on port ${env.PORT}: copied the stopped server's folder (${report.files} files)`;
    }
    await finishBackup(folder, manifest, secret, env.SERVER_SECRET);
    process.stdout.write(`Backup written to ${folder} (${line}).\nRestore it with: npm run restore -- ${folder}\n`);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
