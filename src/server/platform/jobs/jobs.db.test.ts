import { expect, it, vi } from 'vitest';
import type { Mailer } from '#server/platform/mail/mailer.ts';
import { describeOnDatabases } from '#tests/support/databases.ts';
import { captureLog } from '#tests/support/log.ts';
import {
  createJobRunner,
  enqueue,
  type JobDefinitions,
  retryDelaySeconds,
  scheduleRecurring,
  startJobRunner,
} from './jobs.ts';

const noMail: Mailer = { send: () => Promise.reject(new Error('no mail in this test')) };

describeOnDatabases('jobs', (db) => {
  const jobsOf = (kind: string) =>
    db().query<{ attempts: number; last_error: string | null; due_in: number }>(
      `SELECT attempts, last_error, extract(epoch FROM run_at - statement_timestamp())::double precision AS due_in
       FROM jobs WHERE kind = $1`,
      [kind],
    );

  it('runs each job once, on one of several instances, and deletes it', async () => {
    const ran: number[] = [];
    const definitions: JobDefinitions = {
      'test.count': {
        run: async (payload) => {
          ran.push((payload as { n: number }).n);
        },
      },
    };
    for (let n = 0; n < 40; n++) await enqueue(db(), 'test.count', { n });
    // Two instances on one database, polling at once.
    const first = startJobRunner({ db: db(), mailer: noMail }, definitions, { pollMs: 5 });
    const second = startJobRunner({ db: db(), mailer: noMail }, definitions, { pollMs: 5 });
    await vi.waitFor(async () => expect(await jobsOf('test.count')).toEqual([]), { timeout: 10_000 });
    await Promise.all([first.stop(), second.stop()]);
    expect(ran.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, n) => n));
  });

  it('never runs a job whose transaction rolled back', async () => {
    await db()
      .transaction(async (tx) => {
        await enqueue(tx, 'test.rolled-back');
        throw new Error('the change failed');
      })
      .catch(() => {});
    expect(await jobsOf('test.rolled-back')).toEqual([]);
  });

  it('runs a delayed job only once it is due', async () => {
    let runs = 0;
    const runner = startJobRunner(
      { db: db(), mailer: noMail },
      { 'test.later': { run: async () => void runs++ } },
      { pollMs: 60_000 },
    );
    await enqueue(db(), 'test.later', {}, { delaySeconds: 600 });
    const [waiting] = await jobsOf('test.later');
    expect(waiting?.due_in).toBeGreaterThan(590);
    expect(await runner.runDue()).toBe(0);
    await db().query("UPDATE jobs SET run_at = now() WHERE kind = 'test.later'");
    expect(await runner.runDue()).toBe(1);
    expect(runs).toBe(1);
    await runner.stop();
  });

  it('retries a failing job later, with a growing wait, and keeps the reason', async () => {
    let fail = true;
    const runner = createJobRunner(
      { db: db(), mailer: noMail },
      {
        'test.flaky': {
          run: async () => {
            if (fail) throw new Error('upstream down');
          },
        },
      },
    );
    const log = captureLog();
    await enqueue(db(), 'test.flaky');
    await runner.runDue();
    const [failed] = await jobsOf('test.flaky');
    expect(failed).toMatchObject({ attempts: 1, last_error: 'upstream down' });
    expect(failed?.due_in).toBeGreaterThan(retryDelaySeconds(1) - 2);
    // Not due yet: running again does nothing.
    expect(await runner.runDue()).toBe(0);
    fail = false;
    await db().query("UPDATE jobs SET run_at = now() WHERE kind = 'test.flaky'");
    expect(await runner.runDue()).toBe(1);
    expect(await jobsOf('test.flaky')).toEqual([]);
    await runner.stop();
    log.restore();
  });

  it('waits at most five minutes between tries', () => {
    expect([1, 2, 3, 4, 5, 6, 20, 1000].map(retryDelaySeconds)).toEqual([10, 20, 40, 80, 160, 300, 300, 300]);
  });

  it('gives a job up once it is older than its definition allows', async () => {
    const log = captureLog();
    const runner = createJobRunner(
      { db: db(), mailer: noMail },
      { 'test.hopeless': { giveUpAfterSeconds: 60, run: () => Promise.reject(new Error('still down')) } },
    );
    await enqueue(db(), 'test.hopeless');
    await db().query("UPDATE jobs SET created_at = now() - interval '2 minutes' WHERE kind = 'test.hopeless'");
    await runner.runDue();
    expect(await jobsOf('test.hopeless')).toEqual([]);
    expect(log.messages().join('\n')).toMatch(/test\.hopeless .* given up after 1 tries: still down/);
    await runner.stop();
    log.restore();
  });

  it('takes over a job whose instance died while holding it', async () => {
    let runs = 0;
    const runner = createJobRunner({ db: db(), mailer: noMail }, { 'test.orphan': { run: async () => void runs++ } });
    await enqueue(db(), 'test.orphan');
    await db().query("UPDATE jobs SET locked_until = now() + interval '1 minute' WHERE kind = 'test.orphan'");
    expect(await runner.runDue()).toBe(0);
    await db().query("UPDATE jobs SET locked_until = now() - interval '1 second' WHERE kind = 'test.orphan'");
    expect(await runner.runDue()).toBe(1);
    expect(runs).toBe(1);
    await runner.stop();
  });

  it('renews its claim while a job runs longer than the claim lasts, so no other runner takes it', async () => {
    let runs = 0;
    let finishJob = () => {};
    const definitions: JobDefinitions = {
      'test.slow': {
        run: () => {
          runs++;
          return new Promise<void>((resolve) => {
            finishJob = resolve;
          });
        },
      },
    };
    // A claim of a second, renewed every third of it: long enough that a renewal statement slowed
    // by a loaded machine (PGlite syncs each commit to disk) still lands before the claim lapses.
    const first = createJobRunner({ db: db(), mailer: noMail }, definitions, { leaseSeconds: 1 });
    const second = createJobRunner({ db: db(), mailer: noMail }, definitions, { leaseSeconds: 1 });
    await enqueue(db(), 'test.slow');
    const running = first.runDue();
    // Held for three claims' length and more: renewed, not lapsed.
    await vi.waitFor(
      async () => {
        const [held] = await db().query<{ held: number }>(
          `SELECT extract(epoch FROM locked_until - created_at)::double precision AS held FROM jobs WHERE kind = 'test.slow'`,
        );
        expect(held?.held).toBeGreaterThan(3);
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(await second.runDue()).toBe(0);
    finishJob();
    expect(await running).toBe(1);
    expect(runs).toBe(1);
    expect(await jobsOf('test.slow')).toEqual([]);
    await Promise.all([first.stop(), second.stop()]);
  });

  it('records the outcome of a job only under its own claim', async () => {
    const log = captureLog();
    let finishJob = () => {};
    let started = false;
    const runner = createJobRunner(
      { db: db(), mailer: noMail },
      {
        'test.taken-over': {
          run: () => {
            started = true;
            return new Promise<void>((resolve) => {
              finishJob = resolve;
            });
          },
        },
      },
      { leaseSeconds: 0.3 },
    );
    await enqueue(db(), 'test.taken-over');
    const running = runner.runDue();
    await vi.waitFor(() => expect(started).toBe(true));
    // Another instance holds it now (this one lost the database for longer than a claim).
    await db().query("UPDATE jobs SET lease = gen_random_uuid() WHERE kind = 'test.taken-over'");
    await vi.waitFor(() =>
      expect(log.messages().join('\n')).toMatch(/test\.taken-over \d+ lost its claim while running/),
    );
    finishJob();
    await running;
    // Still there for the instance that holds it, which deletes it when its own run ends.
    expect(await jobsOf('test.taken-over')).toHaveLength(1);
    await runner.stop();
    log.restore();
  });

  it('is alive while it polls, and not once stopped', async () => {
    const idle = createJobRunner({ db: db(), mailer: noMail }, {});
    expect(idle.alive()).toBe(false);
    const runner = startJobRunner({ db: db(), mailer: noMail }, {}, { pollMs: 10 });
    expect(runner.alive()).toBe(true);
    await runner.stop();
    expect(runner.alive()).toBe(false);
  });

  it('keeps one row for a recurring job, however many instances start, and moves it on after each run', async () => {
    // Alone with its job: a row an earlier test left to its (stopped) holder comes due once the
    // holder's lease runs out, which on a busy machine can be now.
    await db().query('DELETE FROM jobs');
    let runs = 0;
    const definitions: JobDefinitions = { 'test.hourly': { everySeconds: 3600, run: async () => void runs++ } };
    await scheduleRecurring(db(), definitions);
    await scheduleRecurring(db(), definitions);
    expect(await jobsOf('test.hourly')).toHaveLength(1);
    const runner = createJobRunner({ db: db(), mailer: noMail }, definitions);
    await runner.runDue();
    expect(runs).toBe(1);
    const [next] = await jobsOf('test.hourly');
    expect(next?.due_in).toBeGreaterThan(3500);
    expect(await runner.runDue()).toBe(0);
    await runner.stop();
  });
});
