import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PGLITE_FOLDER } from '#server/features/backup/index.ts';
import { ROOT } from '#server/platform/site-config.ts';
import { type Cluster, expect, type Report } from './checks.ts';
import { freePort, startInstance, stopProcess } from './processes.ts';

/**
 * The build on the embedded database, as one instance runs by default. The build finds the
 * database's creation script, the migrations and the backup's worker from the project's folder,
 * not from its own (decision 260): the instance creates its database and serves, and
 * `npm run backup` has the running instance copy it.
 */
export async function embeddedDatabaseFromTheBuild(cluster: Cluster, report: Report) {
  const { DATABASE_URL: _, ...env } = cluster.instanceEnv;
  const port = await freePort();
  const instance = await startInstance(cluster.instances.length, port, cluster.folder, env);
  try {
    const dataDir = path.join(cluster.folder, `instance-${instance.index}`);
    expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION')), `no embedded database in ${dataDir}`);
    report.note('a new embedded database made and migrated, the instance answering /api/health');
    const target = path.join(cluster.folder, 'embedded-backup');
    const backup = spawnSync(process.execPath, ['scripts/bin/backup.ts', target], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...env,
        DATABASE_URL: undefined,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
      },
      encoding: 'utf8',
    });
    expect(backup.status === 0, `npm run backup failed (${backup.status}): ${backup.stderr.trim()}`);
    expect(
      backup.stdout.includes('copied by the running server'),
      `not copied by the instance: ${backup.stdout.trim()}`,
    );
    expect(existsSync(path.join(target, PGLITE_FOLDER, 'PG_VERSION')), 'the backup holds no database');
    report.note(backup.stdout.trim().split('\n')[0] ?? '');
  } finally {
    await stopProcess(instance.process);
  }
}
