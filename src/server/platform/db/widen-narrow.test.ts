import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { narrowingProblems } from './widen-narrow.ts';

const MIGRATIONS = new URL('./migrations/', import.meta.url);

describe('migrations widen, then narrow', () => {
  it('holds for the migrations of this release', async () => {
    const names = (await readdir(MIGRATIONS)).filter((name) => name.endsWith('.sql')).sort();
    const migrations = await Promise.all(
      names.map(async (name) => ({ name, sql: await readFile(new URL(name, MIGRATIONS), 'utf8') })),
    );
    const { version } = JSON.parse(await readFile(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(narrowingProblems(migrations, version)).toEqual([]);
  });

  const widen = { name: '050-phone-numbers.sql', sql: 'ALTER TABLE accounts ADD COLUMN phone_e164 text;' };
  const mark = {
    name: '051-old-phone-unused.sql',
    sql: "COMMENT ON COLUMN accounts.phone IS 'unused since 1.4.0';",
  };
  const drop = { name: '052-drop-old-phone.sql', sql: 'ALTER TABLE accounts DROP COLUMN phone;' };

  it('takes a drop in a later release than the one that marked the column unused', () => {
    expect(narrowingProblems([widen, mark, drop], '1.5.0')).toEqual([]);
    expect(narrowingProblems([widen, mark, drop], '2.0.0')).toEqual([]);
  });

  it('refuses a drop in the release that stops using the column', () => {
    expect(narrowingProblems([widen, mark, drop], '1.4.0')).toEqual([
      '052-drop-old-phone.sql: drops accounts.phone in release 1.4.0, the release whose code stopped using it (1.4.0); drop it in a later release',
    ]);
  });

  it('refuses a drop that nothing marked unused, however it is spelled', () => {
    for (const sql of [
      'ALTER TABLE accounts DROP COLUMN phone;',
      'alter table public."accounts" drop if exists "phone";',
      'ALTER TABLE accounts ADD COLUMN x numeric(10, 2), DROP COLUMN IF EXISTS phone;',
    ]) {
      expect(narrowingProblems([widen, { name: '052-x.sql', sql }], '9.0.0'), sql).toEqual([
        "052-x.sql: drops accounts.phone, which no earlier migration marks unused (COMMENT ON COLUMN accounts.phone IS 'unused since <version>')",
      ]);
    }
    // A marker counts only for later migrations.
    expect(narrowingProblems([{ name: '052-x.sql', sql: `${drop.sql}\n${mark.sql}` }], '9.0.0')).toHaveLength(1);
  });

  it('refuses a rename of a column or a table, and leaves constraints, defaults and comments alone', () => {
    expect(
      narrowingProblems([{ name: '053-r.sql', sql: 'ALTER TABLE accounts RENAME COLUMN phone TO mobile;' }], '9.0.0'),
    ).toHaveLength(1);
    expect(
      narrowingProblems([{ name: '053-r.sql', sql: 'ALTER TABLE accounts RENAME phone TO mobile;' }], '9.0.0'),
    ).toHaveLength(1);
    expect(
      narrowingProblems([{ name: '053-r.sql', sql: 'ALTER TABLE accounts RENAME TO people;' }], '9.0.0'),
    ).toHaveLength(1);
    const harmless = `-- ALTER TABLE accounts DROP COLUMN phone;
      ALTER TABLE accounts DROP CONSTRAINT accounts_phone_key, ALTER COLUMN phone DROP NOT NULL;
      ALTER TABLE accounts ALTER COLUMN role DROP DEFAULT;
      ALTER TABLE accounts RENAME CONSTRAINT a TO b;`;
    expect(narrowingProblems([{ name: '054-h.sql', sql: harmless }], '9.0.0')).toEqual([]);
  });
});
