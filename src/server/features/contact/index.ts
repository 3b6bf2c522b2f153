import { CONTACT_API } from '#common/contact-api.ts';
import { RETENTION } from '#common/retention.ts';
import type { Deps } from '#server/deps.ts';
import { newRoutes } from '#server/http/context.ts';
import type { Feature } from '#server/http/feature.ts';
import type { JobDefinitions } from '#server/platform/jobs/jobs.ts';
import type { Mail } from '#server/platform/mail/mailer.ts';
import { CONTACT_MAIL_JOB, pruneMessages } from './contact-queries.ts';
import { contactRoutes } from './contact-routes.ts';
import { inboxRoutes } from './inbox-routes.ts';

const DAY_SECONDS = 24 * 60 * 60;
/** A form post is larger than JSON: every byte beyond ASCII is written as three characters. */
const FORM_MAX_BODY_BYTES = 128 * 1024;

/**
 * The contact form and the console's inbox. The form's endpoint takes a plain form post as well as
 * JSON, so that it works without JavaScript; the Origin check stays (browsers send Origin with a
 * form post), and a body may be larger because a form encodes it less tightly.
 */
export function contactFeature(deps: Deps): Feature {
  return {
    routes: newRoutes().route('/', contactRoutes(deps)).route('/', inboxRoutes(deps)),
    guardExemptions: [
      {
        path: CONTACT_API.messages,
        contentTypes: ['application/x-www-form-urlencoded', 'application/json'],
        maxBodyBytes: FORM_MAX_BODY_BYTES,
        tooLarge: 'MESSAGE_TOO_LONG',
      },
    ],
  };
}

interface ContactMailJob {
  messageId: string;
  /** Set for a reply to the sender; absent for the team's notice. */
  replyId?: string;
  mail: Mail;
}

export const contactJobs: JobDefinitions = {
  // Sent only while the message still exists, and the team's notice only while it is not taken for
  // spam: staff may have deleted it or marked it in the meantime.
  [CONTACT_MAIL_JOB]: {
    sendsMail: true,
    run: async (payload, { db, mailer }) => {
      const { messageId, replyId, mail } = payload as ContactMailJob;
      const [message] = await db.query<{ status: string }>('SELECT status FROM contact_messages WHERE id = $1', [
        messageId,
      ]);
      if (!message || (!replyId && message.status === 'spam')) return;
      await mailer.send(mail);
      if (replyId) {
        await db.query('UPDATE contact_replies SET sent_at = statement_timestamp(), kept = $2 WHERE id = $1', [
          replyId,
          mailer.keeps === true,
        ]);
      }
    },
    giveUpAfterSeconds: RETENTION.mailDeliveryDays * DAY_SECONDS,
  },
  'contact.prune': {
    everySeconds: 6 * 60 * 60,
    run: async (_, { db }) => {
      await pruneMessages(db, RETENTION.messageDays, RETENTION.spamMessageDays);
    },
  },
};
export { contactMessagesPer } from './contact-counts.ts';
export { issueFormToken } from './form-token.ts';
