import type { MailDelivery } from '#common/mail-delivery.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import { enqueue, type JobDefinitions } from '#server/platform/jobs/jobs.ts';
import { deliveryOf, jobStateSql } from '#server/platform/mail/delivery.ts';
import type { Mail } from '#server/platform/mail/mailer.ts';

const INVITE_JOB = 'staff.invite';

interface InviteJob {
  accountId: string;
  mail: Mail;
}

/**
 * Queues the invitation of someone added to the staff, in the caller's transaction, and notes it
 * so that the staff page can say how its mail stands. Inviting again starts over.
 */
export async function queueInvitation(tx: Queryable, accountId: string, mail: Mail): Promise<void> {
  await tx.query(
    `INSERT INTO staff_invitations (account_id) VALUES ($1)
     ON CONFLICT (account_id) DO UPDATE SET queued_at = statement_timestamp(), sent_at = NULL, kept = false`,
    [accountId],
  );
  await tx.query(`DELETE FROM jobs WHERE kind = $1 AND payload->>'accountId' = $2`, [INVITE_JOB, accountId]);
  await enqueue(tx, INVITE_JOB, { accountId, mail } satisfies InviteJob);
}

/** How each pending invitation's mail stands, by account id. */
export async function invitationDeliveries(db: Queryable): Promise<Map<string, MailDelivery>> {
  const rows = await db.query<{ id: string; sentAt: Date | null; kept: boolean; job: 'queued' | 'retrying' | null }>(
    `SELECT i.account_id AS id, i.sent_at AS "sentAt", i.kept, ${jobStateSql('accountId', '$1', 'i.account_id::text')} AS job
     FROM staff_invitations i`,
    [INVITE_JOB],
  );
  return new Map(rows.map((row) => [row.id, deliveryOf(row.sentAt, row.kept, row.job)]));
}

export const staffJobs: JobDefinitions = {
  // Sent only while the account is there (its invitation goes with it), and recorded as sent or kept.
  [INVITE_JOB]: {
    sendsMail: true,
    run: async (payload, { db, mailer }) => {
      const { accountId, mail } = payload as InviteJob;
      const [invitation] = await db.query('SELECT 1 FROM staff_invitations WHERE account_id = $1', [accountId]);
      if (!invitation) return;
      await mailer.send(mail);
      await db.query('UPDATE staff_invitations SET sent_at = statement_timestamp(), kept = $2 WHERE account_id = $1', [
        accountId,
        mailer.keeps === true,
      ]);
    },
    giveUpAfterSeconds: 24 * 60 * 60,
  },
};
