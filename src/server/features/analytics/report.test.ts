import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '#server/platform/db/database.ts';
import { storeEvents } from './events-store.ts';
import { formatReport } from './report.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

describe('formatReport', () => {
  it('lines the columns up, numbers to the right', () => {
    const text = formatReport(
      [
        { day: '2026-11-21', language: 'it', path: '/it/about', views: 12, visitors: 3 },
        { day: '2026-11-20', language: '-', path: '-', views: 1, visitors: 1 },
      ],
      7,
    );
    expect(text).toBe(
      [
        'Page views and unique visitors per day (UTC), language and page, last 7 days',
        '',
        'day         language  page       views  visitors',
        '2026-11-21  it        /it/about     12         3',
        '2026-11-20  -         -              1         1',
        '',
        '13 page views in all.',
        '',
      ].join('\n'),
    );
  });

  it('says so when there is nothing to show', () => {
    expect(formatReport([], 30)).toContain('No page views yet.');
  });
});

describe('npm run analytics', () => {
  it('reads the embedded store when no server is running', { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'site-analytics-'));
    try {
      const db = await openDatabase({ dataDir });
      const now = new Date();
      await storeEvents(db, [
        { uuid: 'a', event: '$pageview', distinctId: 'v1.x', path: '/de', language: 'de', occurredAt: now },
        { uuid: 'b', event: '$pageview', distinctId: 'v1.y', path: '/de', language: 'de', occurredAt: now },
        { uuid: 'c', event: '$pageleave', distinctId: 'v1.y', path: '/de', language: 'de', occurredAt: now },
      ]);
      await db.close();
      // No server listens on port 9, so the script opens the database itself.
      const { DATABASE_URL: _, ...environment } = process.env;
      const { stdout } = await promisify(execFile)(process.execPath, ['scripts/bin/analytics.ts', '7'], {
        cwd: ROOT,
        env: { ...environment, DATA_DIR: dataDir, PORT: '9' },
      });
      expect(stdout).toContain('last 7 days');
      expect(stdout).toMatch(new RegExp(`${now.toISOString().slice(0, 10)}\\s+de\\s+/de\\s+2\\s+2`));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
