import { pruneUnverifiedAccounts } from './db/accounts.ts';
import { pruneCodes } from './db/codes.ts';
import type { Queryable } from './db/database.ts';
import { pruneOutbox } from './db/outbox.ts';
import { pruneRateLimits } from './db/rate-limits.ts';
import { pruneSessions } from './db/sessions.ts';

const DAY_SECONDS = 24 * 60 * 60;
/** An account nobody confirmed within this time is removed, so the address is free again. */
export const UNVERIFIED_ACCOUNT_DAYS = 7;
/** Mail in the outbox is there to be read soon; its codes lapse within minutes anyway. */
const OUTBOX_DAYS = 7;
const EVERY_HOUR_MS = 60 * 60 * 1000;

/** Deletes what has lapsed: rate limit windows, codes, sessions, unconfirmed accounts, old outbox mail. */
export async function pruneLapsed(db: Queryable): Promise<void> {
  await pruneRateLimits(db);
  await pruneCodes(db);
  await pruneSessions(db);
  await pruneUnverifiedAccounts(db, UNVERIFIED_ACCOUNT_DAYS * DAY_SECONDS);
  await pruneOutbox(db, OUTBOX_DAYS * DAY_SECONDS);
}

/**
 * Prunes at start and then hourly. Every instance may do it; the deletes are idempotent. The timer
 * does not keep the process alive.
 */
export function startMaintenance(db: Queryable): () => void {
  const run = () => pruneLapsed(db).catch((error: Error) => console.error('Pruning failed:', error.message));
  void run();
  const timer = setInterval(run, EVERY_HOUR_MS);
  timer.unref();
  return () => clearInterval(timer);
}
