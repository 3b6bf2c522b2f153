// The last step of `npm run build`: every module of the server is loaded once, with the Node flags
// and compile cache folder of `npm run serve`, so that Node keeps each stripped of its types in that
// cache (it is keyed by the flags). Otherwise the first start after a change strips what changed,
// and Node's stripper (a WebAssembly build of SWC) stays in that server's memory until it stops:
// some 12 MiB more (docs/decisions/259). A module that does something when loaded fails the build.
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serveCommand } from '#deploy/serve-command.ts';
import { ROOT } from '#server/platform/site-config.ts';

/** Run in a process or a thread of their own, which takes the stripper with it when it ends. */
const OWN_PROCESS = new Set(['src/server/platform/db/create-pglite.ts', 'src/server/platform/db/copy-pass-worker.ts']);

const modules = globSync('src/{server,common}/**/*.ts', { cwd: ROOT })
  .filter((file) => !file.endsWith('.test.ts') && !file.endsWith('.d.ts') && !OWN_PROCESS.has(file))
  .map((file) => pathToFileURL(path.join(ROOT, file)).href);
const serve = serveCommand(ROOT);
const started = performance.now();
const run = spawnSync(
  process.execPath,
  [
    ...serve.args.slice(0, -1),
    '--input-type=module',
    '--eval',
    'for (const url of JSON.parse(process.env.MODULES)) await import(url);',
  ],
  { cwd: ROOT, env: { ...process.env, ...serve.env, MODULES: JSON.stringify(modules) }, stdio: 'inherit' },
);
if (run.status !== 0) {
  console.error(`Loading the server's modules into the compile cache failed (exit ${run.status})`);
  process.exit(1);
}
console.log(
  `${modules.length} server modules in the compile cache (${serve.env.NODE_COMPILE_CACHE}) in ${Math.round(performance.now() - started)} ms`,
);
