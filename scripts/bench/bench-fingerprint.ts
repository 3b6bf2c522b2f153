// `/api/fingerprint` at a fixed rate: `npm run bench:fingerprint -- --rate 1000 --seconds 10`.
// An open-loop load: each request is due at its own moment (rate per second, evenly spaced) and is
// sent then whether or not earlier ones were answered, and its latency counts from that moment, so a
// server that falls behind shows it (a closed loop, as wrk runs, would slow down with it and hide
// the wait). Each request comes from an address of its own, as a browser's first visit does. The
// production API runs in a child process (api-bench-child.ts) on PGlite in a temporary folder,
// or on the PostgreSQL of DATABASE_URL, started as `npm run serve` starts the server. Budget: p99
// under 10 ms at 1,000 requests a second. It also prints the server's processor time per request
// (all its threads, garbage collection included), which says where the time goes and varies less
// than the latency on a shared host.
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { FINGERPRINT_PATH } from '#common/fingerprint.ts';
import { startApiBenchChild } from './api-bench-child.ts';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '10' },
  },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const BUDGET_P99_MS = 10;
/** The first second warms the server (JIT, connections) and is left out of the figures. */
const WARM_UP_SECONDS = 1;

const body = (n: number) =>
  JSON.stringify({
    visitorId: n.toString(16).padStart(32, '0'),
    components: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`component${i}`, 'ab12'.repeat(16)])),
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
    timestamp: Date.now(),
  });

const server = await startApiBenchChild({ SERVER_SECRET: 'fingerprint-bench-secret-of-32-characters' });
const { port } = server;
const serverCpuMs = server.cpuMs;

const agent = new Agent({ keepAlive: true, maxSockets: 256 });
/** One request: its status and its latency counted from the moment it was due. */
const send = (n: number, due: number) =>
  new Promise<{ status: number; ms: number }>((resolve) => {
    const payload = body(n);
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: FINGERPRINT_PATH,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(payload),
          'X-Forwarded-For': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - due }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - due }));
    req.end(payload);
  });

try {
  const total = RATE * (SECONDS + WARM_UP_SECONDS);
  const results: Promise<{ status: number; ms: number }>[] = [];
  const start = performance.now() + 50;
  let next = 0;
  let cpuAtWarm = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && start + (next * 1000) / RATE <= now) {
        results.push(send(next, start + (next * 1000) / RATE));
        next += 1;
        // Processor time counts from the first measured request, as latency does.
        if (next === RATE * WARM_UP_SECONDS) void serverCpuMs().then((ms) => (cpuAtWarm = ms));
      }
      if (next < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  const answered = (await Promise.all(results)).slice(RATE * WARM_UP_SECONDS);
  const cpuPerRequest = ((await serverCpuMs()) - cpuAtWarm) / answered.length;
  const sorted = answered.map(({ ms }) => ms).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const failed = answered.filter(({ status }) => status !== 200).length;
  const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(
    `${FINGERPRINT_PATH} at ${RATE}/s for ${SECONDS} s on ${database}: p50 ${at(0.5).toFixed(1)} ms, ` +
      `p90 ${at(0.9).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${at(1).toFixed(1)} ms; ` +
      `${failed} of ${answered.length} not 200 (load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(', ')})`,
  );
  const perSecond = Array.from({ length: SECONDS }, (_, second) =>
    Math.max(...answered.slice(second * RATE, (second + 1) * RATE).map(({ ms }) => ms)),
  );
  console.log(`slowest answer of each second: ${perSecond.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  console.log(`server processor time: ${(cpuPerRequest * 1000).toFixed(0)} µs per request`);
  console.log(
    at(0.99) < BUDGET_P99_MS ? `within the ${BUDGET_P99_MS} ms budget` : `over the ${BUDGET_P99_MS} ms budget`,
  );
} finally {
  agent.destroy();
  await server.stop();
  await server.remove();
}
