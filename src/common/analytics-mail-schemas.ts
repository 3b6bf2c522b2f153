import { ALERT_MULTIPLE_MAX, ALERT_MULTIPLE_MIN, MAIL_REPORTS } from './analytics-mail.ts';
import { z } from './zod.ts';

/** An admin's analytics mail: a report cadence, and an alert multiple (one decimal at most) or null. */
export const AnalyticsMailSettingsSchema = z.object({
  report: z.enum(MAIL_REPORTS, { error: 'VALIDATION_ERROR' }),
  alertMultiple: z.nullable(
    z.number({ error: 'VALIDATION_ERROR' }).check(
      z.gte(ALERT_MULTIPLE_MIN, 'VALIDATION_ERROR'),
      z.lte(ALERT_MULTIPLE_MAX, 'VALIDATION_ERROR'),
      z.refine((value) => Math.abs(value * 10 - Math.round(value * 10)) < 1e-9, 'VALIDATION_ERROR'),
    ),
  ),
});
