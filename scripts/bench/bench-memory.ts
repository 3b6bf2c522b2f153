// `npm run bench:memory`: the memory (resident set) of an idle server, as `npm run serve` starts
// it (with the environment and Node flags of that script in package.json, deploy/serve-command.ts) on the build in dist/: on a new embedded
// database (its first start creates it), then started again on the same folder, and with DATABASE_URL set, on that PostgreSQL. Each figure is taken
// after the server answered /api/health and then sat idle for --idle seconds (default 10); it
// listens on --port (default 3220).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { serveCommand } from '#deploy/serve-command.ts';
import { ROOT } from '#server/platform/site-config.ts';

const { values: args } = parseArgs({
  options: { idle: { type: 'string', default: '10' }, port: { type: 'string', default: '3220' } },
});
const IDLE_MS = Number(args.idle) * 1000;
const PORT = Number(args.port);
/** How `npm run serve` starts Node (its environment and flags), so that the figures are those of the served site. */
const SERVE = serveCommand(ROOT);

if (!existsSync(path.join(ROOT, 'dist/inline-hashes.json'))) {
  console.error('No build in dist/: run `npm run build` first.');
  process.exit(1);
}

/**
 * Resident, anonymous resident and peak resident memory of a process, in MiB (Linux's /proc). The
 * anonymous part is the process's own; the rest is files mapped from disk, mostly Node's binary,
 * whose resident pages vary by some 5 MiB between starts (ICU's data is read or not yet).
 */
async function memoryOf(pid: number) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS') / 1024, anonymous: kib('RssAnon') / 1024, peak: kib('VmHWM') / 1024 };
}

async function idleServer(label: string, env: Record<string, string>) {
  const child = spawn(process.execPath, SERVE.args, {
    cwd: ROOT,
    env: { ...process.env, ...SERVE.env, DATABASE_URL: undefined, PORT: String(PORT), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (let ready = false; !ready; ) {
      if (child.exitCode !== null) throw new Error(`The server stopped (${child.exitCode})`);
      ready = await fetch(`http://127.0.0.1:${PORT}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const { rss, anonymous, peak } = await memoryOf(child.pid as number);
    console.log(
      `${label.padEnd(36)} ${rss.toFixed(0).padStart(5)} MiB  (anonymous ${anonymous.toFixed(1)} MiB, peak ${peak.toFixed(0)} MiB)`,
    );
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-memory-'));
try {
  console.log(
    `${Object.entries(SERVE.env)
      .map(([name, value]) => `${name}=${value} `)
      .join(
        '',
      )}node ${process.version} ${SERVE.args.join(' ')}; resident memory ${IDLE_MS / 1000} s after the first health answer`,
  );
  await idleServer('PGlite, first start (creates it)', { DATA_DIR: dataDir });
  await idleServer('PGlite, started again', { DATA_DIR: dataDir });
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) await idleServer('PostgreSQL', { DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
