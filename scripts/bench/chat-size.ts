// `npm run bench:chat -- --only size`, or `node scripts/bench/chat-size.ts [--base <other build>]`: what
// the chat adds to a public page, from the build's manifest (gzip as served, zopfli). The launcher
// is fetched after the first paint on every page of the shared layout; the panel only when the
// visitor opens the chat or already has a conversation. With --base (the dist folder of a build
// without the chat), it also gives what the entry chunk grew by.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { LANGUAGES } from '#common/languages.ts';
import { ROOT } from '#server/platform/site-config.ts';
import { ENTRY, type Manifest, START_IMPORTS } from '#server/site/app-modules.ts';

const LAUNCHER = 'src/client/features/chat/ChatLauncher.tsx';
const PANEL = 'src/client/features/chat/ChatPanel.tsx';
/** The budgets of issue 11. */
const LAUNCHER_BUDGET = 3 * 1024;
const PANEL_BUDGET = 35 * 1024;

async function readManifest(dist: string): Promise<Manifest> {
  return JSON.parse(await readFile(path.join(dist, 'client/.vite/manifest.json'), 'utf8')) as Manifest;
}

/** A file's size as served: its precompressed .gz, or gzip -9 where the build wrote none. */
async function served(dist: string, file: string): Promise<number> {
  const full = path.join(dist, 'client', file);
  if (existsSync(`${full}.gz`)) return (await readFile(`${full}.gz`)).length;
  return gzipSync(await readFile(full), { level: 9 }).length;
}

/** The files a module needs: its chunk, its static imports' chunks and their CSS, less those in `loaded`. */
function filesOf(manifest: Manifest, key: string, loaded: Set<string>): string[] {
  const files: string[] = [];
  const visit = (at: string) => {
    const chunk = manifest[at];
    if (!chunk || loaded.has(chunk.file)) return;
    loaded.add(chunk.file);
    files.push(chunk.file);
    for (const css of chunk.css ?? []) {
      if (!loaded.has(css)) {
        loaded.add(css);
        files.push(css);
      }
    }
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return files;
}

const total = async (dist: string, files: string[]) =>
  (await Promise.all(files.map((file) => served(dist, file)))).reduce((sum, size) => sum + size, 0);

export async function chatSizes(dist = path.join(ROOT, 'dist'), base?: string) {
  const manifest = await readManifest(dist);
  const loaded = new Set<string>();
  const entryFiles = [ENTRY, ...START_IMPORTS].flatMap((key) => filesOf(manifest, key, loaded));
  const entry = await total(dist, entryFiles);
  const launcherFiles = filesOf(manifest, LAUNCHER, loaded);
  const launcher = await total(dist, launcherFiles);
  // The texts of the page's language: a small chunk per language and part (scripts/build/vite-text-parts.ts).
  const textsOf = async (part: string) =>
    Object.fromEntries(
      await Promise.all(
        LANGUAGES.map(async (language) => {
          const chunk = manifest[`virtual:texts/chat/${part}/${language}`];
          return [language, chunk ? await served(dist, chunk.file) : 0] as const;
        }),
      ),
    );
  const texts = await textsOf('launcher');
  const largestTexts = Math.max(...Object.values(texts));
  const panelTexts = Math.max(...Object.values(await textsOf('panel')));
  const panel = (await total(dist, filesOf(manifest, PANEL, new Set(loaded)))) + panelTexts;
  let entryGrowth: number | null = null;
  if (base) {
    const baseManifest = await readManifest(base);
    const baseLoaded = new Set<string>();
    const baseFiles = [ENTRY, ...START_IMPORTS].flatMap((key) => filesOf(baseManifest, key, baseLoaded));
    entryGrowth = entry - (await total(base, baseFiles));
  }
  return { entry, entryGrowth, launcher, launcherFiles, texts, largestTexts, panel };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

if (import.meta.main) {
  const { values } = parseArgs({ options: { base: { type: 'string' } } });
  const sizes = await chatSizes(path.join(ROOT, 'dist'), values.base);
  const added = sizes.launcher + sizes.largestTexts + (sizes.entryGrowth ?? 0);
  console.log('What the chat adds to a public page (gzip as served)');
  console.log(`  launcher chunk and its styles:  ${kb(sizes.launcher)}  (${sizes.launcherFiles.join(', ')})`);
  console.log(
    `  texts of the page's language:   ${kb(sizes.largestTexts)} at most (${LANGUAGES.map((l) => `${l} ${sizes.texts[l]} B`).join(', ')})`,
  );
  if (sizes.entryGrowth !== null) console.log(`  entry chunk growth:             ${kb(sizes.entryGrowth)}`);
  console.log(
    `  after the first paint, in all:  ${kb(added)} of ${kb(LAUNCHER_BUDGET)} allowed${sizes.entryGrowth === null ? ' (without the entry growth: pass --base)' : ''}`,
  );
  console.log(
    `  panel, on open or with a conversation: ${kb(sizes.panel)} of ${kb(PANEL_BUDGET)} allowed (its texts included)`,
  );
  if (added > LAUNCHER_BUDGET || sizes.panel > PANEL_BUDGET) process.exitCode = 1;
}
