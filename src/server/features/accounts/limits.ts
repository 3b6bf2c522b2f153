import type { Limit, LimitHit } from '#server/http/rate-limit.ts';

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/**
 * How often each account call may be made, per client address and per account (the email address
 * asked about, whether or not an account has it). The reasons for these numbers are in
 * docs/decisions/012-account-rate-limits.md.
 */
export const LIMITS = {
  registerPerClient: { hits: 20, windowSeconds: HOUR },
  loginPerClient: { hits: 50, windowSeconds: 15 * MINUTE },
  loginPerAccount: { hits: 10, windowSeconds: 15 * MINUTE },
  /** In place of the per-account limit, for a browser with the pass of a password reset. */
  loginPerPass: { hits: 10, windowSeconds: 15 * MINUTE },
  verifyPerClient: { hits: 30, windowSeconds: 15 * MINUTE },
  mailPerClient: { hits: 20, windowSeconds: HOUR },
  mailPerAccountBurst: { hits: 1, windowSeconds: 30 },
  mailPerAccount: { hits: 5, windowSeconds: HOUR },
  resetPerClient: { hits: 30, windowSeconds: 15 * MINUTE },
  deletePerAccount: { hits: 10, windowSeconds: 15 * MINUTE },
  /** Codes at sign-in's second step, like passwords: ten guesses per account and quarter of an hour. */
  secondFactorPerClient: { hits: 50, windowSeconds: 15 * MINUTE },
  secondFactorPerAccount: { hits: 10, windowSeconds: 15 * MINUTE },
  /** Password (and code) tries when a factor is added, turned off, or its recovery codes renewed. */
  factorChangePerAccount: { hits: 10, windowSeconds: 15 * MINUTE },
  /** Passkey challenges handed out (each is a row until answered or lapsed): a page asks one or two at a time. */
  passkeyChallengePerClient: { hits: 100, windowSeconds: 15 * MINUTE },
  /** Sign-ins and links started at identity providers: each one writes a row and a cookie. */
  oidcPerClient: { hits: 30, windowSeconds: 15 * MINUTE },
} as const satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

/** One hit on a named limit, counted under `subject`. */
export const hit = (name: LimitName, subject: string): LimitHit => ({ name, limit: LIMITS[name], subject });

/** The limits of a call that mails a code to `email`: per client, and per address against mail floods. */
export const mailHits = (client: string, email: string): LimitHit[] => [
  hit('mailPerClient', client),
  hit('mailPerAccountBurst', email),
  hit('mailPerAccount', email),
];
