import { RETENTION } from '#common/retention.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import { enqueue, type JobDefinitions } from '#server/platform/jobs/jobs.ts';
import type { Mail } from './mailer.ts';
import { pruneOutbox } from './outbox.ts';

const SEND = 'mail.send';
const DAY_SECONDS = 24 * 60 * 60;

/**
 * Queues a mail for delivery by the jobs. Pass the transaction of the change that calls for it: the
 * mail exists exactly when that change does, the request does not wait for the mail server, and a
 * mail server that is down only delays it.
 */
export const queueMail = (db: Queryable, mail: Mail) => enqueue(db, SEND, mail);

/** Mail still waiting for an address whose owner is gone goes with them. */
export async function dropQueuedMailFor(db: Queryable, address: string): Promise<void> {
  await db.query("DELETE FROM jobs WHERE kind = $1 AND payload->>'to' = $2", [SEND, address]);
}

export const mailJobs: JobDefinitions = {
  [SEND]: {
    run: (mail, { mailer }) => mailer.send(mail as Mail),
    sendsMail: true,
    giveUpAfterSeconds: RETENTION.mailDeliveryDays * DAY_SECONDS,
  },
  'mail.prune-outbox': {
    everySeconds: 60 * 60,
    run: async (_, { db }) => {
      await pruneOutbox(db, RETENTION.mailOutboxDays * DAY_SECONDS);
    },
  },
};
