import { ApiError } from './http/api-error.ts';
import { newRoutes } from './http/context.ts';
import { type Database, unappliedMigrations } from './platform/db/database.ts';
import type { JobRunner } from './platform/jobs/jobs.ts';
import { log } from './platform/log.ts';

/** What a process manager, a load balancer or an orchestrator asks of an instance. */
export const HEALTH_PATHS = {
  /** The process answers: restart it when this fails. Never touches the database. */
  live: '/api/health/live',
  /** The instance can serve: send it traffic only while this answers 200. */
  ready: '/api/health/ready',
  /** The readiness answer under its first address, which existing checks use. */
  readyAsBefore: '/api/health',
} as const;

export interface HealthOptions {
  db: Database;
  /** How long readiness waits for the database before it answers 503. */
  timeoutMs: number;
  /** This process's job runner; without one (an app made for a test), readiness does not ask. */
  jobs?: Pick<JobRunner, 'alive'>;
  /** Whether the process is stopping (main.ts, on SIGTERM): unready at once, so no new work comes. */
  draining?: () => boolean;
}

/**
 * Liveness and readiness apart: a database that is down or hangs makes an instance unready (taken
 * out of rotation, docs/decisions/101) but never "dead", which would have it restarted in a loop
 * for a fault a restart cannot mend.
 */
export function healthRoutes({ db, timeoutMs, jobs, draining }: HealthOptions) {
  const routes = newRoutes();
  // Applied migrations stay applied: once all were there, readiness stops asking.
  let migrationsApplied = false;
  let lastReason: string | null = null;

  const unready = async (): Promise<string | null> => {
    if (draining?.()) return 'the server is stopping';
    if (!(await db.ping(timeoutMs))) return `the database did not answer within ${timeoutMs} ms`;
    if (!migrationsApplied) {
      const missing = await unappliedMigrations(db).catch((error: Error) => [`(${error.message})`]);
      if (missing.length > 0) return `migrations not applied: ${missing.join(', ')}`;
      migrationsApplied = true;
    }
    if (jobs && !jobs.alive()) return 'the job runner is not running';
    return null;
  };

  const ready = async () => {
    const reason = await unready();
    // One line when the instance becomes unready or ready again, not one per check.
    if (reason !== lastReason) {
      if (reason) log.warn(`Not ready: ${reason}`);
      else if (lastReason) log.info('Ready again');
      lastReason = reason;
    }
    if (reason) throw new ApiError(503, 'SERVER_ERROR', { headers: { 'Retry-After': '5' } });
  };

  routes.get(HEALTH_PATHS.live, (c) => c.json({ status: 'ok' }));
  for (const path of [HEALTH_PATHS.ready, HEALTH_PATHS.readyAsBefore]) {
    routes.get(path, async (c) => {
      await ready();
      return c.json({ status: 'ok' });
    });
  }
  return routes;
}
