// Before a test site starts (playwright.config.ts): its data folder gets a copy of one embedded
// database migrated once per set of migrations. Playwright starts the sites one after another, and
// creating a database (initdb in WebAssembly, then the migrations) took each of the nine 15 to 30 s
// on two cores; a copy takes about a second. The first site to start makes the copy the others take.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '#server/platform/db/database.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('Usage: node tests/e2e/site-data.ts <data dir>');

// Named by the migrations it holds, so that a folder left from another version is never taken.
const migrations = (await readdir('src/server/platform/db/migrations')).sort().join('\n');
const template = path.join(
  'test-results',
  `data-template-${createHash('sha256').update(migrations).digest('hex').slice(0, 12)}`,
);

if (!existsSync(template)) {
  const making = `${template}-${process.pid}`;
  await (await openDatabase({ dataDir: making })).close();
  await rename(making, template);
}
await rm(dataDir, { recursive: true, force: true });
await cp(template, dataDir, { recursive: true });
