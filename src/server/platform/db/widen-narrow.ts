/**
 * "Widen, then narrow" (README.md, "Upgrades"; docs/decisions/172): during a rolling upgrade the
 * previous release's code runs beside the new schema, so a migration may add but never take away
 * what that code still uses. A column is narrowed away in two releases:
 *
 * 1. the release whose code stops using it marks it, in one of its migrations:
 *    `COMMENT ON COLUMN table.column IS 'unused since 1.4.0'` (this release's package.json version);
 * 2. a later release (a higher version in package.json) drops it in a later migration.
 *
 * A rename is never safe in one step (the running code knows only the old name): add the new
 * column, write both, then narrow the old one away as above.
 */

export interface MigrationFile {
  name: string;
  sql: string;
}

const MARKER = /COMMENT\s+ON\s+COLUMN\s+([\w."]+)\s+IS\s+'unused since (\d+\.\d+\.\d+)'/gi;
const ALTER_TABLE = /ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?([\w."]+)\s+([^;]*)/gi;
const DROP_COLUMN = /^DROP\s+(?:COLUMN\s+)?(?:IF\s+EXISTS\s+)?("?\w+"?)/i;
const RENAME = /^RENAME\s+(?:COLUMN\s+)?("?\w+"?\s+)?TO\s/i;

/** The SQL without its comments, which may mention anything. */
const withoutComments = (sql: string) => sql.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/--[^\n]*/g, ' ');

/** `schema."Table"` → `table`: the name as the checks compare it. */
const bare = (name: string) => (name.split('.').pop() ?? name).replaceAll('"', '').toLowerCase();

const newer = (a: string, b: string) => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return false;
};

/**
 * What the migrations (in the order they apply) do against "widen, then narrow", when this release
 * is `version`: one line per refused statement, none when all is well.
 */
export function narrowingProblems(migrations: MigrationFile[], version: string): string[] {
  const problems: string[] = [];
  /** table.column → the version whose code stopped using it. */
  const unused = new Map<string, string>();
  for (const { name, sql } of migrations) {
    const text = withoutComments(sql);
    for (const [, table = '', body = ''] of text.matchAll(ALTER_TABLE)) {
      // The actions of one ALTER TABLE, split at commas (a comma inside a type's parentheses makes
      // a piece that starts with neither DROP nor RENAME, which is all that is looked at).
      for (const action of body.split(',').map((part) => part.trim())) {
        if (/^DROP\s+CONSTRAINT\b/i.test(action)) continue;
        if (RENAME.test(action) && !/^RENAME\s+CONSTRAINT\b/i.test(action)) {
          problems.push(
            `${name}: renames in ALTER TABLE ${bare(table)} (${action.slice(0, 60)}): the running release still uses the old name; add the new column, then drop the old one in a later release`,
          );
          continue;
        }
        const column = action.match(DROP_COLUMN)?.[1];
        if (!column) continue;
        const key = `${bare(table)}.${bare(column)}`;
        const since = unused.get(key);
        if (!since)
          problems.push(
            `${name}: drops ${key}, which no earlier migration marks unused (COMMENT ON COLUMN ${key} IS 'unused since <version>')`,
          );
        else if (!newer(version, since))
          problems.push(
            `${name}: drops ${key} in release ${version}, the release whose code stopped using it (${since}); drop it in a later release`,
          );
      }
    }
    // A marker counts for the migrations after its own.
    for (const [, column = '', since = ''] of text.matchAll(MARKER)) {
      const [table, col] = column.split('.').slice(-2);
      unused.set(`${bare(table ?? '')}.${bare(col ?? '')}`, since);
    }
  }
  return problems;
}
