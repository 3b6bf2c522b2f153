// `npm run restore -- FOLDER`: puts a backup made by `npm run backup` back, into an empty DATA_DIR
// (the embedded database) or an empty database (DATABASE_URL), then opens it once, as the server
// will, to show that it starts. It refuses a target that holds anything (docs/decisions/170).

import { access } from 'node:fs/promises';
import path from 'node:path';
import { readManifest, restorePglite, restorePostgres, secretEnvFile } from '#server/features/backup/index.ts';
import { openDatabase } from '#server/platform/db/database.ts';
import { readEnv } from '#server/platform/env.ts';

async function main() {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]?.startsWith('-')) throw new Error('Usage: npm run restore -- FOLDER');
  process.umask(0o077);
  const env = readEnv();
  const folder = path.resolve(args[0] as string);
  const manifest = await readManifest(folder);
  if (manifest.kind === 'postgres' && !env.DATABASE_URL)
    throw new Error('This backup is of PostgreSQL: set DATABASE_URL to the (empty) database to restore it into.');
  if (manifest.kind === 'pglite' && env.DATABASE_URL)
    throw new Error('This backup is of the embedded database: unset DATABASE_URL and set DATA_DIR to an empty folder.');
  const lines =
    env.DATABASE_URL && manifest.kind === 'postgres'
      ? await restorePostgres(folder, env.DATABASE_URL, manifest, env.DATA_DIR)
      : await restorePglite(folder, env.DATA_DIR);

  // Opened as the server opens it: the embedded database replays its log here, once.
  const db = await openDatabase({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
  try {
    const [row] = await db.query<{ applied: number }>('SELECT count(*)::integer AS applied FROM schema_migrations');
    lines.push(`it opens: ${row?.applied ?? 0} migrations recorded`);
  } finally {
    await db.close();
  }
  if (manifest.secretFromEnvironment) {
    const file = secretEnvFile(folder);
    const present = await access(file).then(
      () => true,
      () => false,
    );
    if (present) lines.push(`the backed-up server was given SERVER_SECRET: set it again to the value in ${file}`);
  }
  process.stdout.write(`Restored the backup of ${manifest.createdAt}:\n${lines.map((l) => `- ${l}`).join('\n')}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
