// The rolling upgrade of README.md ("Upgrades"), under load: a new build is put on the three
// instances one after another (nginx told first, then the instance stopped, started on the new
// build and taken back), while clients load pages, proxied answers, writes and event streams
// through nginx. No request may fail, and every acknowledged write must be stored.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { type Cluster, expect, type Report } from './checks.ts';
import { decoded, request, setCookie } from './http.ts';
import { ROOT, reloadNginx, startInstance, stopProcess, waitFor } from './processes.ts';

const WORKERS = 12;
const STREAMS = 4;
/** How long the load runs before the first instance is rolled, and after the last. */
const SETTLE_MS = 1_500;
const MARKER = 'release.txt';
const TARGETS = [
  { method: 'GET', target: '/en', status: 200 },
  { method: 'GET', target: '/fr/contact', status: 200 },
  { method: 'GET', target: '/locales/en/common.json', status: 200 },
  // Answered by the instances: the root page, a redirect, readiness, a write.
  { method: 'GET', target: '/', status: 200 },
  { method: 'GET', target: '/about', status: 302 },
  { method: 'GET', target: '/api/health', status: 200 },
  { method: 'POST', target: '/api/posthog/e/', status: 200 },
] as const;

const pageview = (uuid: string) =>
  JSON.stringify([
    {
      event: '$pageview',
      uuid,
      timestamp: new Date().toISOString(),
      properties: { distinct_id: 'v1.rolling', $current_url: 'http://localhost/en', token: 'first-party' },
    },
  ]);

/**
 * A visitor's chat event stream through nginx, opened again whenever it ends, as EventSource does;
 * an opening answered other than 200 is a failure.
 */
async function streamClient(port: number, index: number, running: () => boolean, failures: string[]) {
  const localAddress = `127.0.9.${index + 1}`;
  const headers = { Origin: `http://127.0.0.1:${port}` };
  const first = await request(port, '/api/chat/messages', {
    method: 'POST',
    headers,
    localAddress,
    body: JSON.stringify({
      body: 'Hello',
      clientMessageId: randomBytes(12).toString('hex'),
      page: '/en',
      language: 'en',
    }),
  });
  const token = setCookie(first, '__Host-chat');
  expect(first.status === 201 && token, `starting a chat: ${first.status} ${decoded(first).toString().slice(0, 80)}`);
  let opened = 0;
  while (running()) {
    opened++;
    const outcome = await new Promise<string | null>((resolve) => {
      const req = http.get(
        {
          host: '127.0.0.1',
          port,
          path: '/api/chat/stream',
          localAddress,
          agent: false,
          headers: { Accept: 'text/event-stream', Cookie: `__Host-chat=${token}` },
        },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            resolve(`stream ${res.statusCode}`);
            return;
          }
          res.on('data', () => {});
          // An ended or cut stream is opened again (EventSource waits its `retry` first).
          res.once('close', () => resolve(null));
          const stop = setInterval(() => {
            if (running()) return;
            clearInterval(stop);
            req.destroy();
          }, 100);
          res.once('close', () => clearInterval(stop));
        },
      );
      req.once('error', (error) => resolve(running() ? `stream: ${error.message}` : null));
    });
    if (outcome) failures.push(outcome);
  }
  return opened;
}

/**
 * A write sent straight to an instance, its body half sent once the server has read its headers
 * (its `100 Continue` says so): a request under way, whose second half `finish` sends; resolves
 * with the status, or the error's message.
 */
function halfSentWrite(port: number) {
  const body = pageview(randomUUID());
  const half = Math.floor(body.length / 2);
  const req = http.request({
    host: '127.0.0.1',
    port,
    path: '/api/posthog/e/',
    method: 'POST',
    agent: false,
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(body)),
      Expect: '100-continue',
    },
  });
  const answer = new Promise<number | string>((resolve) => {
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', (error) => resolve(error.message));
  });
  const continued = new Promise<void>((resolve) =>
    req.once('continue', () => {
      req.write(body.slice(0, half));
      resolve();
    }),
  );
  req.flushHeaders();
  const finish = () => {
    req.end(body.slice(half));
    return answer;
  };
  return { continued, finish };
}

const stopLines = (log: string) => readFileSync(log, 'utf8').split('Stopping:').length - 1;

export async function rollingUpgradeUnderLoad(cluster: Cluster, report: Report) {
  const nginx = cluster.nginx.port;
  // The new build: this one copied, with a file that tells them apart.
  // The new release, laid out as README.md's: its build beside its packages, which the build's
  // server-side renderer imports when published texts are rendered.
  const release = path.join(cluster.folder, 'next-release');
  const next = path.join(release, 'dist');
  await cp(path.join(ROOT, 'dist'), next, { recursive: true });
  await symlink(path.join(ROOT, 'node_modules'), path.join(release, 'node_modules'), 'dir');
  await writeFile(path.join(next, 'client', MARKER), 'next\n');
  const ports = cluster.instances.map((instance) => instance.port);

  const failures: string[] = [];
  const acknowledged: string[] = [];
  let sent = 0;
  let running = true;
  const started = performance.now();
  const at = () => `${Math.round(performance.now() - started)} ms`;
  const worker = async (offset: number) => {
    for (let i = offset; running; i++) {
      const { method, target, status } = TARGETS[i % TARGETS.length] ?? TARGETS[0];
      const uuid = method === 'POST' ? randomUUID() : '';
      sent++;
      try {
        // A new connection each time, as many browsers at once would open.
        const answer = await request(nginx, target, {
          method,
          agent: false,
          // Writes from many addresses, as many visitors' would be: one would meet the rate limit.
          localAddress: `127.0.${10 + (i % 200)}.${offset + 1}`,
          headers: { 'Accept-Encoding': 'br, gzip' },
          ...(method === 'POST' ? { body: pageview(uuid) } : {}),
        });
        if (answer.status !== status) failures.push(`${method} ${target}: ${answer.status} at ${at()}`);
        else if (uuid) acknowledged.push(uuid);
      } catch (error) {
        failures.push(`${method} ${target}: ${(error as Error).message} at ${at()}`);
      }
    }
  };
  const load = Array.from({ length: WORKERS }, (_, i) => worker(i));
  const streams = Array.from({ length: STREAMS }, (_, i) => streamClient(nginx, i, () => running, failures));

  const steps: string[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    for (const [index, instance] of cluster.instances.entries()) {
      const stepStarted = performance.now();
      // 1. nginx sends it nothing new (and serves the new build's files from now on).
      await reloadNginx(cluster.nginx, cluster.folder, ports, { down: [instance.port], siteDir: next });
      // 2. It finishes what it has and stops: a request it is reading when told to stop is answered.
      const inFlight = halfSentWrite(instance.port);
      await inFlight.continued;
      const stopsBefore = stopLines(instance.process.log);
      const stopping = stopProcess(instance.process, 'SIGTERM', 15_000);
      await waitFor(
        `instance ${index} stopping`,
        async () => (stopLines(instance.process.log) > stopsBefore ? true : undefined),
        { timeoutMs: 10_000, intervalMs: 20 },
      ).catch(() => {});
      const status = await inFlight.finish();
      if (status !== 200) failures.push(`a write under way when instance ${index} was told to stop: ${status}`);
      await stopping;
      // 3. The new build starts on its port and is ready.
      cluster.instances[index] = await startInstance(index, instance.port, cluster.folder, {
        ...cluster.instanceEnv,
        SITE_DIR: next,
      });
      // 4. nginx sends it requests again.
      await reloadNginx(cluster.nginx, cluster.folder, ports, { siteDir: next });
      steps.push(`instance ${index} in ${((performance.now() - stepStarted) / 1000).toFixed(1)} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  } finally {
    running = false;
  }
  await Promise.all(load);
  const opened = await Promise.all(streams);

  report.note(`rolled one by one: ${steps.join(', ')}`);
  report.note(
    `${sent} requests by ${WORKERS} clients in ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
      `${acknowledged.length} of them writes; ${STREAMS} event streams opened ${opened.reduce((a, b) => a + b, 0)} times`,
  );
  expect(failures.length === 0, `${failures.length} failed requests:\n      ${failures.slice(0, 10).join('\n      ')}`);
  report.note('failed requests: 0');

  for (const instance of cluster.instances) {
    const marker = await request(instance.port, `/${MARKER}`);
    expect(
      marker.status === 200 && decoded(marker).toString().trim() === 'next',
      `instance ${instance.index} does not serve the new build`,
    );
  }
  const stored = await cluster.postgres.query<{ n: number }>(
    'SELECT count(*)::integer AS n FROM analytics_events WHERE uuid = ANY($1::text[])',
    [acknowledged],
  );
  expect(stored[0]?.n === acknowledged.length, `${acknowledged.length} writes acknowledged, ${stored[0]?.n} stored`);
  report.note(`every instance serves the new build; all ${acknowledged.length} acknowledged writes stored`);
}
