import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '#server/platform/db/database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data folder holding an embedded database with every migration applied, to copy from. */
    pgliteTemplate: string;
  }
}

/**
 * Vitest's global set-up for the database suites: one embedded database is created and migrated
 * once per run, and each suite starts from a copy of it. Creating one (initdb in WebAssembly, then
 * the migrations) takes 5 to 12 s on two cores; a copy, about a second.
 */
export async function setup(project: TestProject) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'site-db-template-'));
  const db = await openDatabase({ dataDir });
  await db.close();
  project.provide('pgliteTemplate', dataDir);
  return () => rm(dataDir, { recursive: true, force: true });
}
