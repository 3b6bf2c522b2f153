/**
 * A mail as its job reports it: waiting for its first try, waiting after a failed one, taken by
 * the mail server, kept in the outbox (no SMTP), or given up after the delivery period. The inbox
 * shows it for each reply, the staff page for each invitation.
 */
export type MailDelivery = 'queued' | 'retrying' | 'sent' | 'kept' | 'failed';
