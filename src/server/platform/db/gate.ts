import { AsyncLocalStorage } from 'node:async_hooks';
import { DatabaseUnavailableError } from './driver.ts';

const aheadOfOthers = new AsyncLocalStorage<true>();

/**
 * Runs `work`; when `ahead`, every database operation it starts (its own awaits included) waits
 * ahead of the others for a connection: for a request that must not queue behind a flood of other
 * requests, such as a sign-in to an account that exists (docs/decisions/258). Only what waits is
 * reordered; a statement already running is not interrupted.
 */
export const aheadInLine = <T>(ahead: boolean, work: () => Promise<T>): Promise<T> =>
  ahead ? aheadOfOthers.run(true, work) : work();

/**
 * At most `slots` operations on the database at once (PGlite: one, as it runs them anyway;
 * PostgreSQL: the pool's connections). The others wait in order, those started in `aheadInLine`
 * first. An operation that cannot start within `waitMs` is dropped before it starts and fails, so
 * that a request answers 503 instead of hanging, and never changes anything after it was answered.
 */
export function createGate(slots: number) {
  const waiting = { ahead: [] as (() => void)[], inTurn: [] as (() => void)[] };
  let running = 0;
  const release = () => {
    const next = waiting.ahead.shift() ?? waiting.inTurn.shift();
    if (next) next();
    else running--;
  };
  const acquire = (waitMs: number | null) =>
    new Promise<void>((resolve, reject) => {
      if (running < slots) {
        running++;
        resolve();
        return;
      }
      const queue = aheadOfOthers.getStore() ? waiting.ahead : waiting.inTurn;
      const start = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer =
        waitMs === null
          ? undefined
          : setTimeout(() => {
              queue.splice(queue.indexOf(start), 1);
              reject(new DatabaseUnavailableError(`No database connection was free for ${waitMs} ms`));
            }, waitMs);
      queue.push(start);
    });
  const run = async <T>(waitMs: number | null, operation: () => Promise<T>): Promise<T> => {
    await acquire(waitMs);
    try {
      return await operation();
    } finally {
      release();
    }
  };
  /** Operations running and waiting: the connections in use and the requests waiting for one. */
  const load = () => ({ running, waiting: waiting.ahead.length + waiting.inTurn.length });
  return Object.assign(run, { load });
}
