import type { Queryable } from '#server/platform/db/database.ts';

/**
 * Everything the site holds about an account, for its owner (GDPR Art. 15 and 20): read from every
 * table that names the account, without secrets or hashes (no password hash, no token or code
 * hash, no authenticator secret, no keyed client hash, no mail body that may carry a live code).
 */

type Row = Record<string, unknown>;
type Reader = (db: Queryable, accountId: string) => Promise<unknown>;

/**
 * One reader per table with an `account_id` column, under the name its part of the file has. A new
 * table that names accounts must be added here: a test compares this list with the database's tables.
 */
export const ACCOUNT_TABLE_READERS: Record<string, { section: string; read: Reader }> = {
  sessions: {
    section: 'sessions',
    read: (db, id) =>
      db.query(
        `SELECT label AS browser, factors, created_at AS "signedInAt", last_seen_at AS "lastActiveAt", expires_at AS "endsAt",
           reauthenticated_at AS "reauthenticatedAt"
         FROM sessions WHERE account_id = $1 ORDER BY created_at`,
        [id],
      ),
  },
  account_codes: {
    section: 'mailedCodes',
    read: (db, id) =>
      db.query(
        `SELECT purpose, attempts, expires_at AS "expiresAt" FROM account_codes WHERE account_id = $1 ORDER BY purpose`,
        [id],
      ),
  },
  account_totp: {
    section: 'authenticatorApp',
    read: (db, id) =>
      db.query(
        `SELECT created_at AS "createdAt", confirmed_at AS "confirmedAt" FROM account_totp WHERE account_id = $1`,
        [id],
      ),
  },
  recovery_codes: {
    section: 'recoveryCodes',
    read: (db, id) =>
      db.query(
        `SELECT count(*)::integer AS total, count(used_at)::integer AS used, max(used_at) AS "lastUsedAt"
         FROM recovery_codes WHERE account_id = $1 HAVING count(*) > 0`,
        [id],
      ),
  },
  trusted_browsers: {
    section: 'trustedBrowsers',
    read: (db, id) =>
      db.query(
        `SELECT label AS browser, created_at AS "createdAt", expires_at AS "expiresAt"
         FROM trusted_browsers WHERE account_id = $1 ORDER BY created_at`,
        [id],
      ),
  },
  passkeys: {
    section: 'passkeys',
    read: (db, id) =>
      db.query(
        `SELECT name, created_at AS "addedAt", last_used_at AS "lastUsedAt" FROM passkeys WHERE account_id = $1 ORDER BY created_at`,
        [id],
      ),
  },
  account_identities: {
    section: 'signInServices',
    read: (db, id) =>
      db.query(
        `SELECT issuer, subject, email, created_at AS "linkedAt", last_used_at AS "lastUsedAt"
         FROM account_identities WHERE account_id = $1 ORDER BY created_at`,
        [id],
      ),
  },
  pending_sign_ins: {
    section: 'pendingSignIns',
    read: (db, id) =>
      db.query(`SELECT attempts, expires_at AS "expiresAt" FROM pending_sign_ins WHERE account_id = $1`, [id]),
  },
  email_changes: {
    section: 'emailChange',
    read: (db, id) =>
      db.query(
        `SELECT new_email AS "newEmail", created_at AS "createdAt", expires_at AS "expiresAt"
         FROM email_changes WHERE account_id = $1`,
        [id],
      ),
  },
  email_change_undos: {
    section: 'emailChangeUndos',
    read: (db, id) =>
      db.query(
        `SELECT old_email AS "oldEmail", new_email AS "newEmail", created_at AS "createdAt", expires_at AS "expiresAt"
         FROM email_change_undos WHERE account_id = $1 ORDER BY created_at`,
        [id],
      ),
  },
  contact_messages: {
    section: 'contactMessages',
    read: async (db, id) => {
      const messages = await db.query<Row & { id: string }>(
        `SELECT id, created_at AS "sentAt", language, page, name, email, subject, body AS message, status
         FROM contact_messages WHERE account_id = $1 ORDER BY created_at`,
        [id],
      );
      const replies = await db.query<Row & { messageId: string }>(
        `SELECT r.message_id AS "messageId", r.body AS reply, r.created_at AS "writtenAt", r.sent_at AS "sentAt"
         FROM contact_replies r JOIN contact_messages m ON m.id = r.message_id
         WHERE m.account_id = $1 ORDER BY r.created_at`,
        [id],
      );
      return messages.map(({ id: messageId, ...message }) => ({
        ...message,
        replies: replies.filter((reply) => reply.messageId === messageId).map(({ messageId: _, ...reply }) => reply),
      }));
    },
  },
  chat_conversations: {
    section: 'chatConversations',
    read: async (db, id) => {
      const conversations = await db.query<Row & { id: string }>(
        `SELECT id, created_at AS "startedAt", last_message_at AS "lastMessageAt", language, page, status,
           visitor_email AS "emailForReplies", visitor_ended_at AS "endedAt"
         FROM chat_conversations WHERE account_id = $1 ORDER BY created_at`,
        [id],
      );
      const messages = await db.query<Row & { conversationId: string }>(
        `SELECT m.conversation_id AS "conversationId", m.author, m.body AS message, m.created_at AS "writtenAt"
         FROM chat_messages m JOIN chat_conversations c ON c.id = m.conversation_id
         WHERE c.account_id = $1 ORDER BY m.id`,
        [id],
      );
      return conversations.map(({ id: conversationId, ...conversation }) => ({
        ...conversation,
        messages: messages
          .filter((message) => message.conversationId === conversationId)
          .map(({ conversationId: _, ...message }) => message),
      }));
    },
  },
  chat_presence: {
    section: 'chatPresence',
    read: (db, id) =>
      db.query(`SELECT seen_at AS "seenAt" FROM chat_presence WHERE account_id = $1 ORDER BY seen_at`, [id]),
  },
  chat_operator_settings: {
    section: 'chatAlerts',
    read: (db, id) => db.query(`SELECT sound FROM chat_operator_settings WHERE account_id = $1`, [id]),
  },
  staff_invitations: {
    section: 'staffInvitation',
    read: (db, id) =>
      db.query(`SELECT queued_at AS "queuedAt", sent_at AS "sentAt" FROM staff_invitations WHERE account_id = $1`, [
        id,
      ]),
  },
  analytics_mail_settings: {
    section: 'analyticsMail',
    read: (db, id) =>
      db.query(
        `SELECT report, alert_multiple::float8 AS "alertMultiple" FROM analytics_mail_settings WHERE account_id = $1`,
        [id],
      ),
  },
  analytics_mails_sent: {
    section: 'analyticsMailsSent',
    read: (db, id) =>
      db.query(
        `SELECT kind, period, queued_at AS "queuedAt" FROM analytics_mails_sent WHERE account_id = $1 ORDER BY queued_at`,
        [id],
      ),
  },
};

export interface AccountData {
  profile: Row;
  /** The analytics choice lives only in the browser's `consent` cookie: what this browser sent. */
  consent: { analytics: 'granted' | 'denied' | 'not-chosen'; keptIn: 'browser' };
  sections: Record<string, unknown>;
  /** Mail to the account's address: waiting for the mail server, or kept in the outbox (subjects only). */
  mail: { queued: Row[]; kept: Row[] };
}

export async function readAccountData(
  db: Queryable,
  accountId: string,
  consentCookie: string | undefined,
): Promise<AccountData | null> {
  const [profile] = await db.query<Row & { email: string }>(
    `SELECT name, email, phone, language, role, created_at AS "registeredAt", verified_at AS "confirmedAt",
       last_active_at AS "lastActiveAt", data_export_day AS "lastCopyDay", data_exports AS "copiesThatDay"
     FROM accounts WHERE id = $1`,
    [accountId],
  );
  if (!profile) return null;
  const sections: Record<string, unknown> = {};
  for (const { section, read } of Object.values(ACCOUNT_TABLE_READERS)) sections[section] = await read(db, accountId);
  const queued = await db.query<Row>(
    `SELECT payload->>'subject' AS subject, created_at AS "queuedAt" FROM jobs
     WHERE kind = 'mail.send' AND payload->>'to' = $1 ORDER BY created_at`,
    [profile.email],
  );
  const kept = await db.query<Row>(
    `SELECT subject, created_at AS "keptAt" FROM mail_outbox WHERE recipient = $1 ORDER BY created_at`,
    [profile.email],
  );
  const analytics = consentCookie === 'granted' || consentCookie === 'denied' ? consentCookie : 'not-chosen';
  return { profile, consent: { analytics, keptIn: 'browser' }, sections, mail: { queued, kept } };
}
