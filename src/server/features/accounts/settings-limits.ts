import type { Limit, LimitHit } from '#server/http/rate-limit.ts';

const MINUTE = 60;

/**
 * How often the account page's own calls may be made (the reasons are in
 * docs/decisions/120-account-self-service.md). Password tries count like those of deletion and
 * second factors: ten per account and quarter of an hour.
 */
export const SETTINGS_LIMITS = {
  passwordChangePerAccount: { hits: 10, windowSeconds: 15 * MINUTE },
  emailChangePerAccount: { hits: 10, windowSeconds: 15 * MINUTE },
  /** Codes for a new address; each code also allows only five tries. */
  emailConfirmPerAccount: { hits: 20, windowSeconds: 15 * MINUTE },
  /** Undo links are long random tokens: this only keeps a client from hammering the database. */
  emailUndoPerClient: { hits: 30, windowSeconds: 15 * MINUTE },
} as const satisfies Record<string, Limit>;

export const settingsHit = (name: keyof typeof SETTINGS_LIMITS, subject: string): LimitHit => ({
  name,
  limit: SETTINGS_LIMITS[name],
  subject,
});
