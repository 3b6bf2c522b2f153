import { randomUUID } from 'node:crypto';
import type { Texts } from '#common/languages.ts';
import type { SiteConfig } from '#common/site-config.ts';
import type { Database, Queryable } from '#server/platform/db/database.ts';
import { errorFields, log } from '#server/platform/log.ts';
import type { Mailer } from '#server/platform/mail/mailer.ts';

/** What a job's code gets to work with. */
export interface JobContext {
  db: Database;
  mailer: Mailer;
  /**
   * The brand and the published texts in force, for a recurring job that writes mail (it has no
   * request to take them from); jobs queued by a request carry their texts in their payload.
   */
  site?: SiteConfig;
  texts?: Texts;
}

export interface JobDefinition {
  run(payload: unknown, context: JobContext): Promise<void>;
  /** A recurring job runs again this many seconds after each run; it is created at start (see scheduleRecurring). */
  everySeconds?: number;
  /** A failing job is retried with growing waits until it is this old, then dropped with a log line. */
  giveUpAfterSeconds?: number;
  /** Its run hands a mail to the mail server: its age counts as a waiting mail's in the metrics. */
  sendsMail?: boolean;
}

/** How a run ended: done (or rescheduled, for a recurring job), to be retried, or given up. */
export type JobOutcome = 'done' | 'retry' | 'given_up';

export type JobDefinitions = Record<string, JobDefinition>;

/** Waits between tries: 10 s, 20 s, 40 s ... at most 5 minutes, so a mail is at most that late once SMTP is back. */
const FIRST_RETRY_SECONDS = 10;
const MAX_RETRY_SECONDS = 300;
const DEFAULT_GIVE_UP_SECONDS = 24 * 60 * 60;
/**
 * How long a claim lasts without renewal. The runner renews it while the job runs, three times
 * per lease, so it lapses only when the instance died or lost the database for that long.
 */
const LEASE_SECONDS = 60;

/**
 * Adds a job; call it with the transaction of the change that causes it, so both happen or neither.
 * With `delaySeconds` it is due that much later (by the database's clock).
 */
export async function enqueue(
  db: Queryable,
  kind: string,
  payload: unknown = {},
  { delaySeconds = 0 }: { delaySeconds?: number } = {},
): Promise<void> {
  await db.query(
    `INSERT INTO jobs (kind, payload, run_at)
     VALUES ($1, $2::jsonb, statement_timestamp() + $3::double precision * interval '1 second')`,
    [kind, JSON.stringify(payload), delaySeconds],
  );
}

/** Makes sure each recurring job exists once, due now; every instance may call it at start. */
export async function scheduleRecurring(db: Queryable, definitions: JobDefinitions): Promise<void> {
  for (const [kind, definition] of Object.entries(definitions)) {
    if (!definition.everySeconds) continue;
    await db.query('INSERT INTO jobs (kind, unique_key) VALUES ($1, $1) ON CONFLICT (unique_key) DO NOTHING', [kind]);
  }
}

interface ClaimedJob {
  id: number;
  /** This claim's token: renewals and the outcome apply only while the job is still held by it. */
  lease: string;
  kind: string;
  payload: unknown;
  attempts: number;
  ageSeconds: number;
}

/**
 * One job at a time: its lease starts when it starts running, never while it waits behind others
 * of a batch (a batch that outlived its lease was sent twice by a second instance).
 */
const CLAIM = `
  UPDATE jobs SET attempts = attempts + 1, lease = $1::uuid,
    locked_until = statement_timestamp() + $2::double precision * interval '1 second'
  WHERE id IN (
    SELECT id FROM jobs
    WHERE run_at <= statement_timestamp() AND (locked_until IS NULL OR locked_until <= statement_timestamp())
    ORDER BY run_at, id LIMIT 1
    FOR UPDATE SKIP LOCKED)
  RETURNING id, lease::text AS lease, kind, payload, attempts,
    extract(epoch FROM statement_timestamp() - created_at)::double precision AS "ageSeconds"`;

const RENEW = `
  UPDATE jobs SET locked_until = statement_timestamp() + $3::double precision * interval '1 second'
  WHERE id = $1 AND lease = $2::uuid RETURNING id`;

/** What a job's log lines carry besides their message, to be found by kind or id. */
const jobFields = (job: ClaimedJob) => ({ job: { kind: job.kind, id: job.id, attempts: job.attempts } });

export const retryDelaySeconds = (attempts: number) =>
  Math.min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** Math.max(0, attempts - 1));

async function finish(
  db: Queryable,
  job: ClaimedJob,
  definition: JobDefinition | undefined,
  error?: Error,
): Promise<JobOutcome> {
  if (!error && definition?.everySeconds) {
    await db.query(
      `UPDATE jobs SET run_at = statement_timestamp() + $2::double precision * interval '1 second',
         attempts = 0, locked_until = NULL, lease = NULL, last_error = NULL WHERE id = $1 AND lease = $3::uuid`,
      [job.id, definition.everySeconds, job.lease],
    );
    return 'done';
  }
  const giveUp = job.ageSeconds > (definition?.giveUpAfterSeconds ?? DEFAULT_GIVE_UP_SECONDS);
  if (!error || (giveUp && !definition?.everySeconds)) {
    if (error) {
      log.error(jobFields(job), `Job ${job.kind} ${job.id} given up after ${job.attempts} tries: ${error.message}`);
    }
    await db.query('DELETE FROM jobs WHERE id = $1 AND lease = $2::uuid', [job.id, job.lease]);
    return error ? 'given_up' : 'done';
  }
  log.warn(jobFields(job), `Job ${job.kind} ${job.id} failed (try ${job.attempts}): ${error.message}`);
  await db.query(
    `UPDATE jobs SET run_at = statement_timestamp() + $2::double precision * interval '1 second',
       locked_until = NULL, lease = NULL, last_error = $3 WHERE id = $1 AND lease = $4::uuid`,
    [job.id, retryDelaySeconds(job.attempts), error.message.slice(0, 1000), job.lease],
  );
  return 'retry';
}

export interface JobRunner {
  /** Claims and runs every job due now, one after another; resolves with how many ran. */
  runDue(): Promise<number>;
  /** Runs due jobs now and then every `pollMs`, until stopped. */
  poll(pollMs: number): void;
  /** Stops polling and waits for the job under way. */
  stop(): Promise<void>;
  /**
   * Whether it polls and has shown a sign of life within a minute (a poll, a job's end, a renewal
   * of the claim on the job under way): what readiness asks of it.
   */
  alive(): boolean;
}

/** A polling runner silent for this long is taken for stuck (it renews a running job's claim far more often). */
const SILENT_MS = 60_000;

/**
 * Runs the jobs of the table on this instance, when asked (`runDue`): every instance has one, and
 * `FOR UPDATE SKIP LOCKED` hands each job to exactly one of them. A job whose instance died is taken
 * again once its claim lapses.
 */
export interface JobRunnerOptions {
  leaseSeconds?: number;
  /** Told how each run ended (the metrics count them). */
  onFinish?: (kind: string, outcome: JobOutcome) => void;
}

export function createJobRunner(
  context: JobContext,
  definitions: JobDefinitions,
  { leaseSeconds = LEASE_SECONDS, onFinish }: JobRunnerOptions = {},
): JobRunner {
  const { db } = context;
  let running: Promise<number> = Promise.resolve(0);
  let stopped = false;
  let polling = false;
  let timer: NodeJS.Timeout | undefined;
  let lastSign = Date.now();
  const signOfLife = () => {
    lastSign = Date.now();
  };

  /**
   * Keeps the claim alive while the job runs, however long the mail server takes. A renewal that
   * finds the claim gone (this instance lost the database for a whole lease) is logged: another
   * instance may run the job too.
   */
  const holdLease = (job: ClaimedJob) => {
    let running = true;
    const renewal = setInterval(
      () => {
        db.query(RENEW, [job.id, job.lease, leaseSeconds]).then(
          (held) => {
            if (running && held.length === 0)
              log.error(jobFields(job), `Job ${job.kind} ${job.id} lost its claim while running`);
          },
          (error: Error) =>
            log.warn(jobFields(job), `Job ${job.kind} ${job.id}: its claim could not be renewed: ${error.message}`),
        );
      },
      (leaseSeconds * 1000) / 3,
    );
    return () => {
      running = false;
      clearInterval(renewal);
    };
  };

  /** Claims one due job and runs it; resolves with whether there was one. */
  const runOne = async (): Promise<boolean> => {
    const [job] = await db.query<ClaimedJob>(CLAIM, [randomUUID(), leaseSeconds]);
    signOfLife();
    if (!job) return false;
    const definition = definitions[job.kind];
    const release = holdLease(job);
    let failure: Error | undefined;
    try {
      if (!definition) throw new Error(`No job definition for ${job.kind}`);
      await definition.run(job.payload, context);
    } catch (error) {
      failure = error as Error;
    } finally {
      release();
    }
    // Written as soon as the job is done: a crash between the mail server's acceptance and this
    // statement is the only way a mail goes out twice. A job that succeeded is never recorded as
    // failed, even when this statement fails (its claim then lapses).
    await finish(db, job, definition, failure).then(
      (outcome) => onFinish?.(job.kind, outcome),
      (finishError: Error) =>
        log.error(
          jobFields(job),
          `Job ${job.kind} ${job.id} could not be recorded as ${failure ? 'failed' : 'done'}: ${finishError.message}`,
        ),
    );
    signOfLife();
    return true;
  };

  const runDue = () => {
    running = running
      .catch(() => 0)
      .then(async () => {
        let total = 0;
        while (!stopped && (await runOne())) total++;
        return total;
      });
    return running;
  };

  return {
    runDue,
    poll(pollMs) {
      polling = true;
      const tick = () => {
        signOfLife();
        runDue()
          .catch((error: Error) => log.error(errorFields(error), 'Running jobs failed'))
          .finally(() => {
            if (!stopped) timer = setTimeout(tick, pollMs);
          });
      };
      timer = setTimeout(tick, 0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running.catch(() => 0);
    },
    alive: () => polling && !stopped && Date.now() - lastSign < SILENT_MS,
  };
}

/** A job runner that polls the table every `pollMs` from now on, as every server instance does. */
export function startJobRunner(
  context: JobContext,
  definitions: JobDefinitions,
  { pollMs = 1_000, ...options }: JobRunnerOptions & { pollMs?: number } = {},
): JobRunner {
  const runner = createJobRunner(context, definitions, options);
  runner.poll(pollMs);
  return runner;
}
