// What the operator console costs to load, from the build: `npm run bench:console` (after
// `npm run build`). The budget: its first load under 150 KB of JavaScript with gzip, the chart
// library included; and no public page may load any of it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { ROOT } from '#server/platform/site-config.ts';
import { ENTRY, type Manifest, moduleClosure } from '#server/site/app-modules.ts';

const CLIENT_DIR = path.join(ROOT, 'dist/client');
const BUDGET_BYTES = 150 * 1024;
const CONSOLE_ENTRY = 'src/client/console/entry.tsx';

const read = async (name: string) =>
  JSON.parse(await readFile(path.join(CLIENT_DIR, '.vite', name), 'utf8')) as Manifest;
const consoleManifest = await read('console-manifest.json');
const siteManifest = await read('manifest.json');

/** The chunk a lazy import of `source` loads, by the module's path. */
const lazyKey = (manifest: Manifest, source: string) => {
  const key = Object.keys(manifest).find((name) => name.endsWith(source));
  if (!key) throw new Error(`${source} is not a chunk of the console's build`);
  return key;
};

const gzipped = promisify(gzip);
async function size(files: Iterable<string>) {
  let raw = 0;
  let compressed = 0;
  for (const file of files) {
    const body = await readFile(path.join(CLIENT_DIR, file));
    raw += body.length;
    compressed += (await gzipped(body, { level: 9 })).length;
  }
  return { raw, compressed };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const files = (manifest: Manifest, keys: Iterable<string>) =>
  new Set([...keys].map((key) => manifest[key]?.file ?? '').filter((file) => file.endsWith('.js')));

const entry = moduleClosure(consoleManifest, CONSOLE_ENTRY);
const analytics = moduleClosure(consoleManifest, lazyKey(consoleManifest, 'pages/AnalyticsPage.tsx'), new Set(entry));
const chart = moduleClosure(consoleManifest, lazyKey(consoleManifest, 'console/Chart.tsx'), new Set(analytics));
const chartOnly = await size(files(consoleManifest, [lazyKey(consoleManifest, 'console/Chart.tsx')]));

const inbox = await size(files(consoleManifest, entry));
const withChart = await size(files(consoleManifest, chart));
console.log('Operator console, JavaScript (gzip -9):');
console.log(`  first load, inbox:                      ${kb(inbox.compressed)} (${kb(inbox.raw)} raw)`);
console.log(`  first load, analytics with the chart:   ${kb(withChart.compressed)} (${kb(withChart.raw)} raw)`);
console.log(`  of which the chart (uPlot and its use): ${kb(chartOnly.compressed)}`);

const publicFiles = new Set<string>();
for (const key of Object.keys(siteManifest)) {
  for (const module of moduleClosure(siteManifest, key)) publicFiles.add(siteManifest[module]?.file ?? '');
  for (const lazy of siteManifest[key]?.dynamicImports ?? []) publicFiles.add(siteManifest[lazy]?.file ?? '');
}
const leaked = [...publicFiles].filter((file) => file.includes('console-'));
const siteEntry = siteManifest[ENTRY];
console.log(
  `Public pages' chunks: ${publicFiles.size}, console code among them: ${leaked.length ? leaked.join(', ') : 'none'}`,
);
console.log(
  `Budget: console first load under ${kb(BUDGET_BYTES)}: ${withChart.compressed < BUDGET_BYTES ? 'kept' : 'MISSED'}`,
);
if (!siteEntry || leaked.length > 0 || withChart.compressed >= BUDGET_BYTES) process.exitCode = 1;
