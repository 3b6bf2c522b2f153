// How fast the contact form's endpoint answers on this machine: `npm run bench:contact`. The budget
// is a median within 50 ms for posting a message (the team's mail is a job, not part of the answer).
// Real HTTP to the real app, on PGlite in a temporary folder or on the PostgreSQL of DATABASE_URL
// (the messages it stores there are removed afterwards).
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { CONTACT_API } from '#common/contact-api.ts';
import { createApp } from '#server/app.ts';
import { issueFormToken } from '#server/features/contact/index.ts';
import { securityHeaders } from '#server/http/security-headers.ts';
import { openDatabase } from '#server/platform/db/database.ts';
import { loadSiteConfig, readTexts } from '#server/platform/site-config.ts';

const MESSAGES = Number(process.argv[2] ?? 300);
const BUDGET_MS = 50;

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-contact-'));
const db = await openDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL });
const secret = Buffer.alloc(32, 5);
// One trusted proxy, so that each message comes from an address of its own and the per-client
// limit, which a benchmark from one machine would reach, stays out of the measurement.
const app = createApp({
  security: securityHeaders(),
  db,
  secret,
  trustedProxies: 1,
  site: await loadSiteConfig(),
  texts: await readTexts(),
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const run = `${Date.now()}`;

let sent = 0;
async function post(kind: 'json' | 'form'): Promise<number> {
  sent += 1;
  const fields = {
    name: 'Grace Hopper',
    email: `bench-${run}-${sent}@example.com`,
    subject: 'question',
    message: `Hello, this is message ${sent} of the contact benchmark, long enough to be a real one.`,
    language: 'en',
    page: '/en/contact',
  };
  const headers = { Origin: base, 'X-Forwarded-For': `10.8.${sent >> 8}.${sent & 255}` };
  const start = performance.now();
  const response =
    kind === 'json'
      ? await fetch(`${base}${CONTACT_API.messages}`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ ...fields, token: issueFormToken(secret, Date.now() - 10_000) }),
        })
      : await fetch(`${base}${CONTACT_API.messages}`, {
          method: 'POST',
          redirect: 'manual',
          headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
        });
  await response.arrayBuffer();
  const elapsed = performance.now() - start;
  const expected = kind === 'json' ? 202 : 303;
  if (response.status !== expected) throw new Error(`The form answered ${response.status}, expected ${expected}`);
  return elapsed;
}

const stats = (label: string, times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  console.log(
    `${label}: n=${sorted.length} median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`,
  );
  return at(0.5);
};

for (let i = 0; i < 20; i++) await post('json');
const json: number[] = [];
const form: number[] = [];
for (let i = 0; i < MESSAGES; i++) {
  json.push(await post('json'));
  if (i % 3 === 0) form.push(await post('form'));
}
console.log(`Contact form on ${db.kind}, one message at a time over HTTP (the team's mail queued, not sent):`);
const median = stats('  with JavaScript (JSON)', json);
stats('  without JavaScript (form post, 303)', form);
console.log(`Budget: median within ${BUDGET_MS} ms: ${median <= BUDGET_MS ? 'kept' : 'MISSED'}`);

await db.query(`DELETE FROM jobs WHERE kind = 'contact.mail' AND payload->'mail'->>'replyTo' LIKE $1`, [
  `bench-${run}-%`,
]);
await db.query('DELETE FROM contact_messages WHERE email LIKE $1', [`bench-${run}-%`]);
server.close();
await db.close();
await rm(dataDir, { recursive: true, force: true });
if (median > BUDGET_MS) process.exitCode = 1;
