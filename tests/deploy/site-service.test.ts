// deploy/site@.service starts an instance as `npm run serve` does: the same Node flags and the same
// settings read before Node starts (docs/decisions/174 and 230), which bench:memory measures.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveCommand } from '#deploy/serve-command.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const unit = readFileSync(path.join(ROOT, 'deploy/site@.service'), 'utf8');
const serve = serveCommand(ROOT);

/** The unit's `Environment=` assignments, all lines together. */
const unitEnv = Object.fromEntries(
  [...unit.matchAll(/^Environment=(.*)$/gm)].flatMap((line) =>
    (line[1] as string)
      .split(/\s+/)
      .map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
  ),
);

describe('deploy/site@.service', () => {
  it('runs Node with the flags and file of npm run serve', () => {
    const execStart = /^ExecStart=(\S+) (.*)$/m.exec(unit);
    expect(execStart?.[1]).toMatch(/\/node$/);
    expect(execStart?.[2]?.split(/\s+/)).toEqual(serve.args);
  });

  it('sets what npm run serve sets before Node starts, the cache in its own cache folder', () => {
    expect(Object.keys(serve.env).sort()).toEqual(['GLIBC_TUNABLES', 'NODE_COMPILE_CACHE']);
    expect(unitEnv.GLIBC_TUNABLES).toBe(serve.env.GLIBC_TUNABLES);
    expect(unit).toMatch(/^CacheDirectory=site\/%i$/m);
    expect(unitEnv.NODE_COMPILE_CACHE).toBe('/var/cache/site/%i');
  });
});

describe('serveCommand', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'serve-command-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const read = (serve: string) => {
    writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ scripts: { serve } }));
    return serveCommand(folder);
  };

  it('reads the settings before node, then the arguments, flags with = included', () => {
    expect(read('A_B=x:y=1 C=./d node --max-semi-space-size=2 main.ts')).toEqual({
      env: { A_B: 'x:y=1', C: './d' },
      args: ['--max-semi-space-size=2', 'main.ts'],
    });
    expect(read('node main.ts')).toEqual({ env: {}, args: ['main.ts'] });
  });

  it('refuses a script that does not start Node itself', () => {
    expect(() => read('A=1 tsx main.ts')).toThrow(/not "\[NAME=value …\] node <file>"/);
    expect(() => read('A=1 node')).toThrow();
  });
});
