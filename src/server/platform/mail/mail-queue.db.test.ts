import { once } from 'node:events';
import { createServer } from 'node:net';
import { expect, it, vi } from 'vitest';
import { RETENTION } from '#common/retention.ts';
import { type Database, openDatabase } from '#server/platform/db/database.ts';
import { createJobRunner, startJobRunner } from '#server/platform/jobs/jobs.ts';
import { describeOnDatabases } from '#tests/support/databases.ts';
import { captureLog } from '#tests/support/log.ts';
import { startTestMailServer } from '#tests/support/mail-server.ts';
import { mailJobs, queueMail } from './mail-queue.ts';
import { smtpMailer } from './mailer.ts';

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const mail = (n: number) => ({
  to: `queued-${n}@example.com`,
  language: 'en',
  subject: `Mail ${n}`,
  text: `Text ${n}`,
  html: `<p>Text ${n}</p>`,
});

describeOnDatabases('mail queue', (db, suite) => {
  it('delivers each mail once when the mail server takes longer than a lease, with three instances', async () => {
    // Each mail takes 0.4 s to be accepted, and a claim lasts 1 s: a runner that held several jobs
    // for one claim would still be sending when the claim lapsed, and another would send them too.
    const server = await startTestMailServer(0, { acceptDelayMs: 400 });
    // Three instances: on PostgreSQL each with its own pool, as separate processes have; one PGlite
    // belongs to one process, so there the three share it.
    const instances: Database[] =
      suite.target.kind === 'postgres'
        ? await Promise.all([0, 1, 2].map(() => openDatabase(suite.store().options)))
        : [db(), db(), db()];
    const mailer = smtpMailer(server.url, 'Site <no-reply@example.com>');
    try {
      await db().transaction(async (tx) => {
        for (let n = 0; n < 12; n++) await queueMail(tx, mail(100 + n));
      });
      const runners = instances.map((instance) =>
        startJobRunner({ db: instance, mailer }, mailJobs, { pollMs: 50, leaseSeconds: 1 }),
      );
      await vi.waitFor(
        async () => expect(await db().query("SELECT id FROM jobs WHERE kind = 'mail.send'")).toEqual([]),
        { timeout: 20_000, interval: 100 },
      );
      // A second copy would come from a runner still holding a lapsed claim: let them all finish.
      await Promise.all(runners.map((runner) => runner.stop()));
      expect(server.mails.map((received) => received.subject).sort()).toEqual(
        Array.from({ length: 12 }, (_, n) => `Mail ${100 + n}`).sort(),
      );
    } finally {
      if (suite.target.kind === 'postgres') await Promise.all(instances.map((instance) => instance.close()));
      await server.stop();
    }
  }, 30_000);

  it('delivers every mail exactly once when the SMTP server comes back after an hour down', async () => {
    const log = captureLog();
    const port = await freePort();
    const runner = createJobRunner(
      { db: db(), mailer: smtpMailer(`smtp://127.0.0.1:${port}`, 'Site <no-reply@example.com>') },
      mailJobs,
    );
    await db().transaction(async (tx) => {
      for (let n = 0; n < 3; n++) await queueMail(tx, mail(n));
    });
    // An hour of tries against a server that is not there: each fails and waits at most 5 minutes.
    for (let hour = 0; hour < 12; hour++) {
      await db().query("UPDATE jobs SET run_at = now() WHERE kind = 'mail.send'");
      await runner.runDue();
    }
    const waiting = await db().query<{ attempts: number; due_in: number }>(
      `SELECT attempts, extract(epoch FROM run_at - now())::double precision AS due_in FROM jobs WHERE kind = 'mail.send'`,
    );
    expect(waiting).toHaveLength(3);
    for (const job of waiting) {
      expect(job.attempts).toBe(12);
      expect(job.due_in).toBeLessThanOrEqual(300);
    }
    await db().query("UPDATE jobs SET created_at = now() - interval '1 hour', run_at = now() WHERE kind = 'mail.send'");

    const server = await startTestMailServer(port);
    try {
      await runner.runDue();
      await runner.runDue();
      for (let n = 0; n < 3; n++) await server.waitFor(`queued-${n}@example.com`);
      expect(server.mails.map((received) => received.subject).sort()).toEqual(['Mail 0', 'Mail 1', 'Mail 2']);
      expect(await db().query("SELECT id FROM jobs WHERE kind = 'mail.send'")).toEqual([]);
    } finally {
      await runner.stop();
      await server.stop();
      log.restore();
    }
  });

  it('gives a mail up after the delivery period and deletes it', async () => {
    const log = captureLog();
    const runner = createJobRunner(
      { db: db(), mailer: { send: () => Promise.reject(new Error('rejected')) } },
      mailJobs,
    );
    await queueMail(db(), mail(9));
    await db().query(
      `UPDATE jobs SET created_at = now() - ($1::integer + 1) * interval '1 day' WHERE kind = 'mail.send'`,
      [RETENTION.mailDeliveryDays],
    );
    await runner.runDue();
    expect(await db().query("SELECT id FROM jobs WHERE kind = 'mail.send'")).toEqual([]);
    await runner.stop();
    log.restore();
  });

  it('prunes the outbox after its retention', async () => {
    await db().query(
      `INSERT INTO mail_outbox (recipient, subject, text_body, html_body, created_at) VALUES
         ('old@example.com', 's', 't', 'h', now() - ($1::integer + 1) * interval '1 day'),
         ('new@example.com', 's', 't', 'h', now())`,
      [RETENTION.mailOutboxDays],
    );
    await mailJobs['mail.prune-outbox']?.run({}, { db: db(), mailer: { send: async () => {} } });
    expect(await db().query('SELECT recipient FROM mail_outbox')).toEqual([{ recipient: 'new@example.com' }]);
  });
});
