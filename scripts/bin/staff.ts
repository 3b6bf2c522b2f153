// `npm run staff -- add EMAIL --role admin`: gives an account a staff role (making the account when
// there is none) and prints a one-time link to set its password; `remove EMAIL` and `list` too.
// A PGlite folder must not be opened by two processes, so while the server runs the command is
// asked of it (from this machine, with a token derived from the server secret); otherwise, and
// always with PostgreSQL, the database is opened directly.

import { mkdir } from 'node:fs/promises';
import { createPasswords, DEFAULT_HASHING } from '#server/features/accounts/index.ts';
import {
  parseStaffCommand,
  runStaffCommand,
  STAFF_COMMAND_PATH,
  type StaffCommandResult,
  staffCommandToken,
  USAGE,
} from '#server/features/staff/index.ts';
import { openDatabase } from '#server/platform/db/database.ts';
import { readEnv } from '#server/platform/env.ts';
import { loadServerSecret } from '#server/platform/secrets.ts';
import { loadSiteConfig, ownAddress } from '#server/platform/site-config.ts';

async function fromRunningServer(command: unknown, secret: Buffer): Promise<StaffCommandResult | null> {
  const env = readEnv();
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  let response: Response;
  try {
    response = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${env.PORT}${STAFF_COMMAND_PATH}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${staffCommandToken(secret)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(command),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    return null;
  }
  if (!response.ok) throw new Error(`The server on port ${env.PORT} refused the command (${response.status}).`);
  return (await response.json()) as StaffCommandResult;
}

async function main() {
  const command = parseStaffCommand(process.argv.slice(2));
  if (!command) throw new Error(USAGE);
  const env = readEnv();
  await mkdir(env.DATA_DIR, { recursive: true });
  const secret = await loadServerSecret(env.DATA_DIR, env.SERVER_SECRET);
  let result = env.DATABASE_URL ? null : await fromRunningServer(command, secret);
  if (!result) {
    const db = await openDatabase({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
    try {
      // Links to the address the server answers on, as the server's own would be.
      const site = await loadSiteConfig({ defaultSiteUrl: ownAddress(env.HOST, env.PORT) });
      result = await runStaffCommand(
        { db, secret, site, passwords: createPasswords(DEFAULT_HASHING), mailKept: !env.SMTP_URL },
        command,
      );
    } finally {
      await db.close();
    }
  }
  if (!result.ok) throw new Error(result.error);
  process.stdout.write(`${result.lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
