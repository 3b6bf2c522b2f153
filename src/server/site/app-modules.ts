// What a page of the site runs before it hydrates and the stylesheets it paints with, from the
// client build's manifest: read by the prerender step (the page's preloads and inlined sheets), the
// benchmark and the chat's size check.

/** The client build's manifest (`dist/client/.vite/manifest.json`), as Vite writes it. */
export type Manifest = Record<string, { file: string; css?: string[]; imports?: string[]; dynamicImports?: string[] }>;

import { PAGES, type PageId } from '#common/routes.ts';

export const ENTRY = 'src/client/app/entry-client.tsx';

/** A page's module as the manifest names it, from the page table. */
export const pageModuleKey = (page: PageId) => `src/client/pages/${PAGES[page].module}.tsx`;

/** What the entry imports on demand as it starts (see entry-client.tsx), so that every page preloads it. */
export const START_IMPORTS = ['node_modules/react-dom/client.js'];

/** A module and everything it imports statically, as manifest keys. */
export function moduleClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) moduleClosure(manifest, imported, seen);
  return seen;
}

/**
 * The modules a page runs before it hydrates: the entry, what it imports as it starts, the page's
 * module (a source path, as the manifest names it) and all their static imports.
 */
export function startModules(manifest: Manifest, pageModule: string): Set<string> {
  const absent = [ENTRY, ...START_IMPORTS, pageModule].filter((key) => !manifest[key]);
  if (absent.length > 0) throw new Error(`${absent.join(', ')} missing from the Vite manifest`);
  const seen = new Set<string>();
  for (const key of [ENTRY, ...START_IMPORTS, pageModule]) moduleClosure(manifest, key, seen);
  return seen;
}

/** The stylesheets of a module and its static imports, as built files (`assets/….css`), in import order. */
export function closureStylesheets(manifest: Manifest, key: string): string[] {
  return [...new Set([...moduleClosure(manifest, key)].flatMap((module) => manifest[module]?.css ?? []))];
}

/** The critical sheet: what the entry module imports, inlined into every page. */
export const criticalStylesheets = (manifest: Manifest): string[] => closureStylesheets(manifest, ENTRY);

/**
 * A page's own stylesheets: those its module and its static imports bring beyond the critical
 * sheet. The prerender inlines them into that page alone; a navigation to the page fetches them
 * with its module.
 */
export function pageStylesheets(manifest: Manifest, page: PageId): string[] {
  const critical = new Set(criticalStylesheets(manifest));
  return closureStylesheets(manifest, pageModuleKey(page)).filter((file) => !critical.has(file));
}
