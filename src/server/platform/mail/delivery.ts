import type { MailDelivery } from '#common/mail-delivery.ts';

/**
 * A SQL expression for the state of the job that delivers a mail, found by a payload field:
 * 'queued' before its first try, 'retrying' after a failed one, NULL once the job is gone.
 * `$kind` and `$value` are the placeholders of the job's kind and of the field's value.
 */
export const jobStateSql = (field: string, kind: string, value: string) =>
  `(SELECT CASE WHEN j.last_error IS NULL THEN 'queued' ELSE 'retrying' END FROM jobs j
    WHERE j.kind = ${kind} AND j.payload->>'${field}' = ${value} LIMIT 1)`;

/** How a mail's delivery stands, from what its job recorded when done and its job while there. */
export function deliveryOf(sentAt: Date | null, kept: boolean, job: 'queued' | 'retrying' | null): MailDelivery {
  if (sentAt) return kept ? 'kept' : 'sent';
  return job ?? 'failed';
}
