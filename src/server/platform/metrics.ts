import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database, PoolUse } from './db/database.ts';
import { timedDatabase } from './db/timed-database.ts';
import type { JobDefinitions, JobOutcome } from './jobs/jobs.ts';
import { errorFields, log } from './log.ts';
import { RequestHistogram } from './request-histogram.ts';

/** Where a scraper reads the metrics; served from the API app (see metrics-routes.ts). */
export const METRICS_PATH = '/metrics';

/** Password hashing under way and waiting, by lane (see features/accounts/passwords.ts). */
export interface HashingLoad {
  running: number;
  waiting: { known: number; account: number; other: number };
}

/** Event streams open on this instance (see features/chat/chat-hub.ts). */
export interface StreamCount {
  visitors: number;
  consoles: number;
}

/** Methods that get a label of their own; anything else a client sends is counted as `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** From a cached page (a fraction of a millisecond) to a sign-in waiting for its hash (seconds). */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STATEMENT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

const JOB_STATES = `
  SELECT kind,
    count(*) FILTER (WHERE locked_until > statement_timestamp())::integer AS running,
    count(*) FILTER (WHERE run_at <= statement_timestamp()
      AND (locked_until IS NULL OR locked_until <= statement_timestamp()))::integer AS due,
    count(*)::integer AS total,
    count(*) FILTER (WHERE last_error IS NOT NULL)::integer AS failing,
    max(extract(epoch FROM statement_timestamp() - created_at)) FILTER (WHERE unique_key IS NULL)::double precision AS oldest,
    max(extract(epoch FROM statement_timestamp() - created_at))
      FILTER (WHERE unique_key IS NULL AND last_error IS NOT NULL)::double precision AS "oldestFailing"
  FROM jobs GROUP BY kind`;

interface JobState {
  kind: string;
  running: number;
  due: number;
  total: number;
  failing: number;
  oldest: number | null;
  oldestFailing: number | null;
}

/**
 * One instance's metrics in Prometheus's text format: what it serves and how fast, its database,
 * its jobs, its event streams and its password hashing. Counters and histograms move as things
 * happen (the request histogram, on every page, is kept by hand to cost a map lookup: see
 * request-histogram.ts); gauges are read when scraped. Each app has a
 * registry of its own, so several in one process (tests) never mix their figures.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new RequestHistogram(
    'site_http_request_duration_seconds',
    'Requests answered, by method, route pattern and status, and how long the answer took',
    REQUEST_BUCKETS,
  );
  private readonly statements = new Histogram({
    name: 'site_db_statement_duration_seconds',
    help: 'Database statements, from asking for them to their result (a wait for a connection included)',
    buckets: STATEMENT_BUCKETS,
    registers: [this.registry],
  });
  private readonly jobsFinished = new Counter({
    name: 'site_jobs_finished_total',
    help: 'Job runs on this instance, by kind and outcome (done, retry, given_up)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly pool = new Gauge({
    name: 'site_db_connections',
    help: 'Database connections of this instance: in_use, idle, waiting (requests waiting for one), max',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  private readonly jobs = new Gauge({
    name: 'site_jobs',
    help: 'Jobs in the table, by kind and state: due (waiting to run), running, later (scheduled or waiting to retry)',
    labelNames: ['kind', 'state'] as const,
    registers: [this.registry],
  });
  private readonly failing = new Gauge({
    name: 'site_jobs_failing',
    help: 'Jobs whose last run failed and that wait for their next, by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly oldestFailing = new Gauge({
    name: 'site_jobs_failing_oldest_age_seconds',
    help: 'Age of the oldest one-off job whose last run failed (0 when none)',
    registers: [this.registry],
  });
  private readonly oldestMail = new Gauge({
    name: 'site_mail_waiting_oldest_age_seconds',
    help: 'Age of the oldest mail not yet handed to the mail server (0 when none)',
    registers: [this.registry],
  });
  private readonly jobsRead = new Gauge({
    name: 'site_jobs_read_ok',
    help: '1 when this scrape read the jobs table, 0 when the database did not answer (the job figures are then absent)',
    registers: [this.registry],
  });
  private readonly streamsOpen = new Gauge({
    name: 'site_event_streams_open',
    help: 'Chat event streams open on this instance, by audience (visitor, console)',
    labelNames: ['audience'] as const,
    registers: [this.registry],
  });
  private readonly hashing = new Gauge({
    name: 'site_password_hashing',
    help: 'Password hashes running, and sign-ins waiting for one by lane (known browsers, other browsers for an account that exists, the rest)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });

  private db?: Database;
  private mailKinds: string[] = [];
  private readHashing?: () => HashingLoad;
  private readStreams?: () => StreamCount;

  /** With `process`, also Node's own figures (memory, CPU, event loop delay, garbage collection): one per process. */
  constructor({ process = false }: { process?: boolean } = {}) {
    if (process) collectDefaultMetrics({ register: this.registry });
  }

  /** Counts an answered request; `route` is its pattern (`/api/console/messages/:id`), never the raw path. */
  recordRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(METHODS.has(method) ? method : 'other', route, status, seconds);
  }

  /** `db` with every statement's time counted here. */
  timed(db: Database): Database {
    return timedDatabase(db, (seconds) => this.statements.observe(seconds));
  }

  recordJob(kind: string, outcome: JobOutcome): void {
    this.jobsFinished.inc({ kind, outcome });
  }

  /** Reads pool use and the jobs table of `db` at each scrape; `definitions` say which jobs send mail. */
  watchDatabase(db: Database, definitions: JobDefinitions): void {
    this.db = db;
    this.mailKinds = Object.entries(definitions)
      .filter(([, definition]) => definition.sendsMail)
      .map(([kind]) => kind);
  }

  watchHashing(read: () => HashingLoad): void {
    this.readHashing = read;
  }

  watchStreams(read: () => StreamCount): void {
    this.readStreams = read;
  }

  /** The metrics as a scraper reads them, gauges read now. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    if (this.db) {
      this.setPool(this.db.usage());
      await this.readJobs(this.db);
    }
    const streams = this.readStreams?.();
    if (streams) {
      this.streamsOpen.set({ audience: 'visitor' }, streams.visitors);
      this.streamsOpen.set({ audience: 'console' }, streams.consoles);
    }
    const hashing = this.readHashing?.();
    if (hashing) {
      this.hashing.set({ state: 'running' }, hashing.running);
      for (const [lane, count] of Object.entries(hashing.waiting))
        this.hashing.set({ state: `waiting_${lane}` }, count);
    }
    return {
      contentType: this.registry.contentType,
      body: `${await this.registry.metrics()}\n${this.requests.format()}`,
    };
  }

  private setPool(use: PoolUse): void {
    this.pool.set({ state: 'in_use' }, use.inUse);
    this.pool.set({ state: 'idle' }, use.idle);
    this.pool.set({ state: 'waiting' }, use.waiting);
    this.pool.set({ state: 'max' }, use.max);
  }

  private async readJobs(db: Database): Promise<void> {
    // Kinds that no longer have a job drop out rather than keep their last figure.
    this.jobs.reset();
    this.failing.reset();
    let states: JobState[];
    try {
      states = await db.query<JobState>(JOB_STATES);
    } catch (error) {
      log.warn(errorFields(error), 'Metrics could not read the jobs table');
      this.jobsRead.set(0);
      this.oldestFailing.reset();
      this.oldestMail.reset();
      return;
    }
    this.jobsRead.set(1);
    let oldestFailing = 0;
    let oldestMail = 0;
    for (const state of states) {
      this.jobs.set({ kind: state.kind, state: 'due' }, state.due);
      this.jobs.set({ kind: state.kind, state: 'running' }, state.running);
      this.jobs.set({ kind: state.kind, state: 'later' }, state.total - state.due - state.running);
      this.failing.set({ kind: state.kind }, state.failing);
      oldestFailing = Math.max(oldestFailing, state.oldestFailing ?? 0);
      if (this.mailKinds.includes(state.kind)) oldestMail = Math.max(oldestMail, state.oldest ?? 0);
    }
    this.oldestFailing.set(oldestFailing);
    this.oldestMail.set(oldestMail);
  }
}
