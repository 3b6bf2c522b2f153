import { errorFields, log } from '#server/platform/log.ts';
import type { Database } from './database.ts';

/** What `keptCurrent` gives: bring this instance up to date now, or from now on. */
export interface KeptCurrent {
  /** Resolves once `apply` has run after every earlier call; rejects with its error. */
  refresh(): Promise<void>;
  /** Applies what the database holds, then again on every notification; resolves to the way to stop. */
  start(): Promise<() => Promise<void>>;
}

/**
 * State an instance keeps in memory from rows any instance may change (published texts, the
 * brand): `apply` reads the database and applies what changed, one run at a time, so an older read
 * never lands after a newer one. It runs again on each notification of `channels` and when the
 * listening connection comes back (notifications sent while it was away are lost). A failed run is
 * logged with `failure`; the next notification tries again.
 */
export function keptCurrent(options: {
  db: Database;
  channels: readonly string[];
  apply: () => Promise<void>;
  failure: string;
}): KeptCurrent {
  let chain: Promise<void> = Promise.resolve();
  const refresh = () => {
    const run = chain.then(options.apply);
    chain = run.catch((error: unknown) => log.error(errorFields(error), options.failure));
    return run;
  };
  return {
    refresh,
    start: async () => {
      const again = () => {
        void refresh().catch(() => {});
      };
      const unlisten = await Promise.all(
        options.channels.map((channel) => options.db.listen(channel, again, { onResync: again })),
      );
      await refresh();
      return async () => {
        await Promise.all(unlisten.map((stop) => stop()));
      };
    },
  };
}
