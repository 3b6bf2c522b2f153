import { RETENTION } from '#common/retention.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import type { JobDefinitions } from '#server/platform/jobs/jobs.ts';
import { pruneInactiveAccounts, pruneUnverifiedAccounts } from './account-queries.ts';
import { pruneCodes } from './code-queries.ts';
import { pruneEmailChanges } from './email-change-queries.ts';
import { pruneChallenges } from './passkey-queries.ts';
import { pruneSecondFactorState } from './second-factor-queries.ts';
import { pruneSessions } from './session-queries.ts';

const DAY_SECONDS = 24 * 60 * 60;

/** Deletes what has lapsed: codes, sessions, pending sign-ins, passkey challenges and trust in browsers, unconfirmed accounts, and accounts unused past their retention. */
export async function pruneAccounts(db: Queryable): Promise<void> {
  await pruneCodes(db);
  await pruneSessions(db);
  await pruneSecondFactorState(db);
  await pruneChallenges(db);
  await pruneEmailChanges(db);
  await pruneUnverifiedAccounts(db, RETENTION.unverifiedAccountDays * DAY_SECONDS);
  await pruneInactiveAccounts(db, RETENTION.inactiveAccountDays * DAY_SECONDS);
}

export const accountJobs: JobDefinitions = {
  'accounts.prune': { everySeconds: 60 * 60, run: (_, { db }) => pruneAccounts(db) },
};
