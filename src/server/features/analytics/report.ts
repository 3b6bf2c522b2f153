import { timingSafeEqual } from 'node:crypto';
import { keyedHash } from '#server/platform/secrets.ts';
import type { ReportRow } from './events-store.ts';

/** The longest report asked for: about ten years. */
export const MAX_REPORT_DAYS = 3660;

/**
 * The bearer token for the report endpoint: derived from the server secret, so `npm run analytics`
 * on the same machine (or with the same SERVER_SECRET) can ask the running server, and nobody else.
 */
export function reportToken(secret: Buffer): string {
  return keyedHash(secret, 'analytics-report');
}

export function isReportToken(secret: Buffer, header: string | undefined): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '');
  const expected = Buffer.from(reportToken(secret));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The report as a plain-text table, one row per day, language and page. */
export function formatReport(rows: ReportRow[], days: number): string {
  const title = `Page views and unique visitors per day (UTC), language and page, last ${days} days`;
  if (rows.length === 0) return `${title}\n\nNo page views yet.\n`;
  const header = ['day', 'language', 'page', 'views', 'visitors'];
  const cells = rows.map((row) => [row.day, row.language, row.path, String(row.views), String(row.visitors)]);
  const widths = header.map((name, i) => Math.max(name.length, ...cells.map((cell) => cell[i]?.length ?? 0)));
  const line = (cell: string[]) =>
    cell
      .map((value, i) => (i >= 3 ? value.padStart(widths[i] ?? 0) : value.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const views = rows.reduce((sum, row) => sum + row.views, 0);
  return `${title}\n\n${[line(header), ...cells.map(line)].join('\n')}\n\n${views} page views in all.\n`;
}
