import type { Deps } from '#server/deps.ts';
import type { Feature } from '#server/http/feature.ts';
import { BACKUP_COMMAND_PATH, backupRoutes } from './backup-routes.ts';

export {
  type BackupManifest,
  copyStoppedPglite,
  dumpPostgres,
  finishBackup,
  newBackupFolder,
  PGLITE_FOLDER,
  readManifest,
  restorePglite,
  restorePostgres,
  secretEnvFile,
} from './backup-folder.ts';
export { BACKUP_COMMAND_PATH, backupCommandToken } from './backup-routes.ts';

/**
 * Backups: the endpoint `npm run backup` asks while the server holds the embedded database. It
 * carries no session and comes from no page: it is taken out of the Origin check and proves itself
 * with a token derived from the server secret, from this machine only.
 */
export function backupFeature(deps: Deps): Feature {
  return {
    routes: backupRoutes(deps),
    guardExemptions: [{ path: BACKUP_COMMAND_PATH, origin: false, contentTypes: ['application/json'] }],
  };
}
