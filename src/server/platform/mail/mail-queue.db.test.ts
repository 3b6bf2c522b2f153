import { once } from 'node:events';
import { createServer } from 'node:net';
import { expect, it, vi } from 'vitest';
import { RETENTION } from '#common/retention.ts';
import { createJobRunner } from '#server/platform/jobs/jobs.ts';
import { describeOnDatabases } from '#tests/support/databases.ts';
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

describeOnDatabases('mail queue', (db) => {
  it('delivers every mail exactly once when the SMTP server comes back after an hour down', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
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
      vi.restoreAllMocks();
    }
  });

  it('gives a mail up after the delivery period and deletes it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
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
    vi.restoreAllMocks();
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
