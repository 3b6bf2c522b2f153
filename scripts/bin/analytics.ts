// `npm run analytics [days]`: page views and unique visitors per day, language and page, from the
// events the embedded store kept (no PostHog host configured). A PGlite folder must not be opened
// by two processes, so while the server runs the report is asked of it; otherwise, and always with
// PostgreSQL, the database is read directly.

import {
  formatReport,
  MAX_REPORT_DAYS,
  pageViewReport,
  type ReportRow,
  reportToken,
} from '#server/features/analytics/index.ts';
import { openDatabase } from '#server/platform/db/database.ts';
import { readEnv } from '#server/platform/env.ts';
import { loadServerSecret } from '#server/platform/secrets.ts';

const DEFAULT_DAYS = 30;

async function fromRunningServer(days: number): Promise<ReportRow[] | null> {
  const env = readEnv();
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  const secret = await loadServerSecret(env.DATA_DIR, env.SERVER_SECRET);
  let response: Response;
  try {
    response = await fetch(
      `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT}/api/analytics/report?days=${days}`,
      {
        headers: { Authorization: `Bearer ${reportToken(secret)}` },
        signal: AbortSignal.timeout(10_000),
      },
    );
  } catch {
    return null;
  }
  if (!response.ok) throw new Error(`The server on port ${env.PORT} refused the report (${response.status}).`);
  return (await response.json()) as ReportRow[];
}

async function fromDatabase(days: number): Promise<ReportRow[]> {
  const env = readEnv();
  const db = await openDatabase({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
  try {
    return await pageViewReport(db, days);
  } finally {
    await db.close();
  }
}

async function main() {
  const days = Number(process.argv[2] ?? DEFAULT_DAYS);
  if (!Number.isInteger(days) || days < 1 || days > MAX_REPORT_DAYS)
    throw new Error(`Usage: npm run analytics [days, 1 to ${MAX_REPORT_DAYS}]`);
  const rows = (!readEnv().DATABASE_URL && (await fromRunningServer(days))) || (await fromDatabase(days));
  process.stdout.write(formatReport(rows, days));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
