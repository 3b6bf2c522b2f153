import { deleteCounting, type Queryable } from '#server/platform/db/database.ts';

export interface OutboxMail {
  recipient: string;
  subject: string;
  text: string;
  html: string;
}

export async function addToOutbox(db: Queryable, mail: OutboxMail): Promise<void> {
  await db.query('INSERT INTO mail_outbox (recipient, subject, text_body, html_body) VALUES ($1, $2, $3, $4)', [
    mail.recipient,
    mail.subject,
    mail.text,
    mail.html,
  ]);
}

export async function outboxFor(db: Queryable, recipient: string): Promise<OutboxMail[]> {
  return db.query<OutboxMail>(
    'SELECT recipient, subject, text_body AS text, html_body AS html FROM mail_outbox WHERE recipient = $1 ORDER BY id',
    [recipient],
  );
}

/** Mail to an address whose account is deleted goes with it. */
export async function deleteOutboxFor(db: Queryable, recipient: string): Promise<void> {
  await db.query('DELETE FROM mail_outbox WHERE recipient = $1', [recipient]);
}

export async function pruneOutbox(db: Queryable, olderThanSeconds: number): Promise<number> {
  return deleteCounting(
    db,
    `DELETE FROM mail_outbox WHERE created_at < statement_timestamp() - $1::double precision * interval '1 second'`,
    [olderThanSeconds],
  );
}
