import { timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import type { Deps } from '#server/deps.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { fromThisMachine } from '#server/http/from-this-machine.ts';
import { readJson } from '#server/http/json-body.ts';
import { keyedHash } from '#server/platform/secrets.ts';

/** Where `npm run backup` asks a running server for a copy of the embedded database. */
export const BACKUP_COMMAND_PATH = '/api/internal/backup';

/** The bearer token that lets `npm run backup` ask the running server: derived from the server secret. */
export const backupCommandToken = (secret: Buffer) => keyedHash(secret, 'backup-command');

function isBackupCommandToken(secret: Buffer, header: string | undefined): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '');
  const expected = Buffer.from(backupCommandToken(secret));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `npm run backup` while the server holds the embedded database, whose folder no other process may
 * open: the server copies it, consistently, into the folder the command names (which must not
 * exist yet). Only from this machine, with the token; anyone else is told the path does not exist.
 * Whoever holds the token holds the server secret, and so may read the data folder anyway.
 */
export function backupRoutes(deps: Deps) {
  const { db } = deps;
  const routes = newRoutes();
  routes.post(BACKUP_COMMAND_PATH, async (c) => {
    if (db.kind !== 'pglite' || !fromThisMachine(c) || !db.snapshot) throw new ApiError(404, 'NOT_FOUND');
    if (!isBackupCommandToken(deps.secret, c.req.header('Authorization'))) throw new ApiError(401, 'UNAUTHORIZED');
    const body = (await readJson(c)) as { target?: unknown } | null;
    const target = body?.target;
    if (typeof target !== 'string' || !path.isAbsolute(target)) throw new ApiError(400, 'INVALID_REQUEST');
    try {
      return c.json(await db.snapshot(target));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ApiError(400, 'INVALID_REQUEST');
      throw error;
    }
  });
  return routes;
}
