// `npm run test:cluster`: the deployment of README.md ("Deploy") on loopback: a throwaway
// PostgreSQL, three instances of the site sharing it (one DATABASE_URL and SERVER_SECRET,
// TRUST_PROXY=1), and nginx with the configuration deploy/ generates. Then it checks that nginx
// answers as the Node server does, that a session made on one instance works on the others, that
// rate limits hold across them, that texts published on one are served by all of them and by nginx
// within 2 s, that a brand change and a picture's new text leave every page able to run its inline
// code, that killing one during load fails no request, that stopping PostgreSQL for a while
// then bringing it back leaves every instance working, and that a new build rolled onto the
// instances one by one under load fails no request.
// `npm run test:cluster -- brand` runs only the checks whose name contains "brand".
// Builds the site first when there is no build. Needs PostgreSQL and nginx installed (Debian:
// apt-get install -y postgresql nginx libnginx-mod-http-brotli-static). Every process it starts
// is stopped at the end, whatever happens; its files are removed unless a check failed.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brandChangeKeepsPagesRunning } from './brand-change.ts';
import {
  CheckFailure,
  type Cluster,
  databaseOutage,
  hashesBelowPages,
  internalPathsRefused,
  killOneInstanceUnderLoad,
  nginxAnswersLikeNode,
  type Report,
  rateLimitsAcrossInstances,
  sessionsAcrossInstances,
} from './checks.ts';
import { embeddedDatabaseFromTheBuild } from './embedded-build.ts';
import { pictureChangeReachesItsPagesFirst } from './picture-change.ts';
import {
  createPostgres,
  freePort,
  killAllNow,
  logTail,
  ROOT,
  startInstance,
  startNginx,
  stopAll,
} from './processes.ts';
import { publishedTextsEverywhere } from './published-texts.ts';
import { rollingUpgradeUnderLoad } from './rolling-upgrade.ts';

const INSTANCES = 3;
/** Contact messages per client and hour: the shared limit the rate limit check counts across instances. */
const CONTACT_LIMIT = 5;

const CHECKS: [string, (cluster: Cluster, report: Report) => Promise<void>][] = [
  ['nginx answers as the Node server does', nginxAnswersLikeNode],
  ['nginx refuses the internal paths from outside', internalPathsRefused],
  ['a session made on one instance works on the others', sessionsAcrossInstances],
  ['every instance hashes below the thread that serves its pages', hashesBelowPages],
  ['rate limits hold across instances', rateLimitsAcrossInstances],
  ['texts published on one instance are served by every instance and by nginx within 2 s', publishedTextsEverywhere],
  ['a brand change leaves every page served able to run its own inline code', brandChangeKeepsPagesRunning],
  [
    "a picture's text reaches its own pages within 2 s, and every page served can run its inline code",
    pictureChangeReachesItsPagesFirst,
  ],
  ['killing one instance during load fails no request', killOneInstanceUnderLoad],
  ['PostgreSQL stopped, then back: every instance works', databaseOutage],
  ['the build on a new embedded database serves, and a backup asked of it is written', embeddedDatabaseFromTheBuild],
  ['a new build rolled onto the instances one by one under load fails no request', rollingUpgradeUnderLoad],
];

/** The checks to run: those whose name contains the first argument, or all. */
const chosen = CHECKS.filter(([name]) => name.includes(process.argv[2] ?? ''));

interface Result {
  name: string;
  ok: boolean;
  seconds: number;
  lines: string[];
  findings: string[];
}

const seconds = (since: number) => (performance.now() - since) / 1000;
const step = (line: string) => console.log(`· ${line}`);

/** The test's own folder: the cluster's data and every log. */
let folder = '';
let stopping: Promise<void> | undefined;
const shutdown = () => {
  stopping ??= stopAll();
  return stopping;
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping every process the test started${folder ? `; files left in ${folder}` : ''}`);
    void shutdown().finally(() => process.exit(130));
  });
}
process.once('exit', killAllNow);

async function main(): Promise<boolean> {
  const started = performance.now();
  const built = ['dist/inline-hashes.json', 'dist/client/en', 'dist/server/main.js'];
  if (!built.every((file) => existsSync(path.join(ROOT, file)))) {
    step('no build in dist/: npm run build');
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }

  folder = await mkdtemp(path.join(tmpdir(), 'site-cluster-'));
  const results: Result[] = [];
  let setupError: Error | undefined;
  try {
    const postgres = await createPostgres(path.join(folder, 'postgres'));
    step(`PostgreSQL ${postgres.version} on 127.0.0.1:${postgres.port} (throwaway cluster)`);

    const instanceEnv = {
      SITE_DIR: path.join(ROOT, 'dist'),
      DATABASE_URL: postgres.url,
      SERVER_SECRET: randomBytes(32).toString('base64url'),
      TRUST_PROXY: '1',
      CONTACT_RATE_LIMIT: String(CONTACT_LIMIT),
    };
    const ports: number[] = [];
    for (let i = 0; i < INSTANCES; i++) ports.push(await freePort());
    const instances = await Promise.all(ports.map((port, i) => startInstance(i, port, folder, instanceEnv)));
    step(
      `${INSTANCES} instances on 127.0.0.1:${ports.join(', ')} (one DATABASE_URL and SERVER_SECRET, TRUST_PROXY=1, no SMTP)`,
    );

    const nginx = await startNginx(folder, ports);
    step(
      `nginx ${nginx.version} on 127.0.0.1:${nginx.port} (generated by deploy/nginx-config.ts; brotli_static ${nginx.brotli ? 'on' : 'off: module not installed'})`,
    );
    step(`ready in ${seconds(started).toFixed(1)} s; files in ${folder}\n`);

    const cluster: Cluster = { postgres, instances, nginx, folder, instanceEnv, contactLimit: CONTACT_LIMIT };
    for (const [name, check] of chosen) {
      const result: Result = { name, ok: true, seconds: 0, lines: [], findings: [] };
      const checkStarted = performance.now();
      try {
        await check(cluster, {
          note: (line) => result.lines.push(line),
          finding: (line) => result.findings.push(line),
        });
      } catch (error) {
        result.ok = false;
        result.lines.push(error instanceof CheckFailure ? error.message : `error: ${(error as Error).stack}`);
      }
      result.seconds = seconds(checkStarted);
      results.push(result);
      console.log(`${result.ok ? 'PASS' : 'FAIL'}  ${name}  (${result.seconds.toFixed(1)} s)`);
      for (const line of result.lines) console.log(`      ${line}`);
      for (const line of result.findings) console.log(`      SERVER DEFECT: ${line}`);
      if (!result.ok) {
        for (const instance of cluster.instances) {
          console.log(`      --- instance ${instance.index} log (last lines)\n${logTail(instance.process, 8)}`);
        }
      }
    }
  } catch (error) {
    setupError = error as Error;
    console.log(`FAIL  setting up the cluster: ${setupError.message}`);
  } finally {
    await shutdown();
  }

  const passed = results.filter((result) => result.ok).length;
  const findings = results.flatMap((result) => result.findings);
  const ok = !setupError && chosen.length > 0 && passed === chosen.length;
  console.log(
    `\n${ok ? 'PASS' : 'FAIL'}: ${passed} of ${chosen.length} checks passed in ${seconds(started).toFixed(1)} s` +
      (findings.length ? `; ${findings.length} server defect(s) noted above` : ''),
  );
  if (ok) await rm(folder, { recursive: true, force: true });
  else console.log(`logs kept in ${folder}`);
  return ok;
}

main()
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch(async (error: unknown) => {
    console.error(error);
    await shutdown();
    process.exit(1);
  });
