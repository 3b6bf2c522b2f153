// Sign-in latency over HTTP on this machine, hashing included (argon2id at the server's parameters):
// `npm run bench:sign-in`. The budget is a median within 300 ms. Runs on PGlite in a temporary
// folder, or on the PostgreSQL of DATABASE_URL (its accounts are removed afterwards; its rate limit
// windows lapse within the hour).
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { AUTH_API } from '#common/account-api.ts';
import { createApp } from '#server/app.ts';
import { createPasswords, DEFAULT_HASHING } from '#server/features/accounts/passwords.ts';
import { issueFpid } from '#server/features/visitor/fpid.ts';
import { securityHeaders } from '#server/http/security-headers.ts';
import { openDatabase } from '#server/platform/db/database.ts';

const ACCOUNTS = 10;
/** Each account signs in as often as its rate limit allows in one window. */
const ROUNDS = 10;
const PASSWORD = 'correct horse battery staple';

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-sign-in-'));
const db = await openDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL });
const secret = Buffer.alloc(32, 3);
// One trusted proxy, so that each request can come from an address of its own and the per-client
// limit, which a benchmark from one machine would reach, stays out of the measurement.
const app = createApp({
  security: securityHeaders({ scripts: [], styles: [] }),
  db,
  secret,
  trustedProxies: 1,
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const run = `${Date.now()}`;
const hash = await createPasswords().hash(PASSWORD);
const emails = Array.from({ length: ACCOUNTS }, (_, n) => `bench-${run}-${n}@example.com`);
for (const [n, email] of emails.entries()) {
  await db.query(
    `INSERT INTO accounts (name, email, phone, password_hash, language, verified_at)
     VALUES ('Bench', $1, $2, $3, 'en', now())`,
    [email, `+4420${run.slice(-6)}${n}`, hash],
  );
}

let requests = 0;
async function signIn(email: string, password: string): Promise<number> {
  requests += 1;
  const start = performance.now();
  const response = await fetch(`${base}${AUTH_API.login}`, {
    method: 'POST',
    headers: {
      Origin: base,
      'Content-Type': 'application/json',
      'X-Forwarded-For': `10.9.${requests >> 8}.${requests & 255}`,
      Cookie: `_fpid=${issueFpid(secret, 'bench')}`,
    },
    body: JSON.stringify({ email, password }),
  });
  await response.arrayBuffer();
  const elapsed = performance.now() - start;
  const expected = password === PASSWORD && !email.startsWith('nobody') ? 200 : 401;
  if (response.status !== expected) throw new Error(`Sign-in answered ${response.status}, expected ${expected}`);
  return elapsed;
}

const stats = (label: string, times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]?.toFixed(1);
  console.log(`${label}: n=${sorted.length} median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms`);
};

await signIn('warm-up-nobody@example.com', 'x');
const success: number[] = [];
const wrong: number[] = [];
const unknown: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const email of emails.slice(0, ACCOUNTS / 2)) success.push(await signIn(email, PASSWORD));
  for (const email of emails.slice(ACCOUNTS / 2)) wrong.push(await signIn(email, 'not the password'));
  unknown.push(await signIn(`nobody-${run}-${round}@example.com`, PASSWORD));
}

const { memoryCost, timeCost, parallelism } = DEFAULT_HASHING;
console.log(`argon2id m=${memoryCost} KiB, t=${timeCost}, p=${parallelism}; ${db.kind}; sequential requests over HTTP`);
stats('successful sign-in', success);
stats('wrong password', wrong);
stats('unknown address', unknown);

server.close();
await db.query('DELETE FROM accounts WHERE email = ANY($1)', [emails]);
await db.close();
await rm(dataDir, { recursive: true, force: true });
