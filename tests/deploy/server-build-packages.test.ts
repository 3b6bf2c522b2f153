import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { UserConfig } from 'vite';
import { describe, expect, it } from 'vitest';

/**
 * The server's build carries zod and libphonenumber-js inside it (vite.server.config.ts, decision
 * 267). A package it loads from node_modules that imported either would bring in a second copy: more
 * memory, and a zod without `src/common/zod.ts`'s settings. These tests import every package the
 * server's modules import, as the build leaves them, and watch what gets loaded.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const serverBuild: UserConfig = (await import(pathToFileURL(path.join(ROOT, 'vite.server.config.ts')).href)).default;
/** The packages the server's build carries inside it, as its configuration names them. */
const BUILT_IN = [serverBuild.ssr?.noExternal].flat().filter((name) => typeof name === 'string');
const aliases = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).imports as Record<string, string>;

/** Import and export lines and dynamic imports, but for those of types only. */
const SPECIFIERS =
  /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The packages (by name, with the path asked for) that the server's modules import, from its entry on. */
function serverPackages(): string[] {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !/\.tsx?$/.test(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIERS)) {
      const specifier = (match[1] ?? match[2]) as string;
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier));
      else if (specifier.startsWith('#')) {
        const [alias, target] =
          Object.entries(aliases).find(([key]) => specifier.startsWith(key.replace('*', ''))) ?? [];
        if (alias && target) visit(path.join(ROOT, target.replace('*', specifier.slice(alias.length - 1))));
      } else if (!specifier.startsWith('node:')) packages.add(specifier);
    }
  };
  visit(path.join(ROOT, 'src/server/main.ts'));
  return [...packages].sort();
}

/** Imports `specifiers` in a Node of its own and gives the files it loaded from the built-in packages. */
async function builtInLoadedBy(specifiers: string[]): Promise<string[]> {
  const probe = `
    import { registerHooks } from 'node:module';
    const loaded = new Set();
    registerHooks({
      resolve(specifier, context, next) {
        const resolved = next(specifier, context);
        loaded.add(resolved.url);
        return resolved;
      },
    });
    for (const specifier of ${JSON.stringify(specifiers)}) await import(specifier);
    const pattern = new RegExp('/node_modules/(${BUILT_IN.join('|')})/');
    console.log(JSON.stringify([...loaded].filter((url) => pattern.test(url))));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', probe], { cwd: ROOT });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string);
}

describe('the packages the server loads from node_modules', () => {
  it('find the server’s packages, and see a package load a built-in one', async () => {
    expect(BUILT_IN).toEqual(expect.arrayContaining(['zod', 'libphonenumber-js']));
    const packages = serverPackages();
    expect(packages).toEqual(expect.arrayContaining(['hono', 'pg', 'zod/mini', '@hono/zod-validator']));
    expect(await builtInLoadedBy(['libphonenumber-js/min'])).not.toEqual([]);
  });

  it('load neither zod nor libphonenumber-js of their own', async () => {
    const external = serverPackages().filter(
      (name) => !BUILT_IN.some((own) => name === own || name.startsWith(`${own}/`)),
    );
    expect(external.length).toBeGreaterThan(5);
    expect(await builtInLoadedBy(external)).toEqual([]);
  });
});
