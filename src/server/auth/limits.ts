import type { Context } from 'hono';
import { fail } from '../api-error.ts';
import { clientAddress } from '../client-address.ts';
import type { Queryable } from '../db/database.ts';
import { hitRateLimit } from '../db/rate-limits.ts';
import { keyedHash } from './tokens.ts';

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/**
 * How often each auth call may be made, per client address and per account (the email address
 * asked about, whether or not an account has it). The reasons for these numbers are in
 * docs/decisions/012-account-rate-limits.md.
 */
export const LIMITS = {
  registerPerClient: { limit: 20, windowSeconds: HOUR },
  loginPerClient: { limit: 50, windowSeconds: 15 * MINUTE },
  loginPerAccount: { limit: 10, windowSeconds: 15 * MINUTE },
  verifyPerClient: { limit: 30, windowSeconds: 15 * MINUTE },
  mailPerClient: { limit: 20, windowSeconds: HOUR },
  mailPerAccountBurst: { limit: 1, windowSeconds: 30 },
  mailPerAccount: { limit: 5, windowSeconds: HOUR },
  resetPerClient: { limit: 30, windowSeconds: 15 * MINUTE },
  deletePerAccount: { limit: 10, windowSeconds: 15 * MINUTE },
} as const satisfies Record<string, { limit: number; windowSeconds: number }>;

export type LimitName = keyof typeof LIMITS;

export interface LimitScope {
  db: Queryable;
  secret: Buffer;
  trustedProxies: number;
}

/**
 * Counts one hit on each named limit and answers TOO_MANY_REQUESTS with Retry-After when any is
 * exceeded; null when the request may go on. Per-client limits count under the client's address,
 * per-account ones under `account.subject` (an email address or an account id). Keys hold only
 * keyed hashes of these, never the addresses themselves.
 */
export async function checkLimits(
  c: Context,
  scope: LimitScope,
  perClient: LimitName[],
  account?: { subject: string; limits: LimitName[] },
): Promise<Response | null> {
  const client = clientAddress(c, scope.trustedProxies);
  const hits: [LimitName, string][] = [
    ...perClient.map((name): [LimitName, string] => [name, client]),
    ...(account?.limits ?? []).map((name): [LimitName, string] => [name, account?.subject ?? '']),
  ];
  let wait = 0;
  for (const [name, value] of hits) {
    const { limit, windowSeconds } = LIMITS[name];
    const result = await hitRateLimit(
      scope.db,
      `${name}:${keyedHash(scope.secret, name, value)}`,
      limit,
      windowSeconds,
    );
    if (!result.allowed) wait = Math.max(wait, result.retryAfterSeconds);
  }
  return wait > 0 ? fail(c, 429, 'TOO_MANY_REQUESTS', undefined, { 'Retry-After': String(wait) }) : null;
}

/** The limits of a call that mails a code to `email`: per client, and per address against mail floods. */
export const checkMailLimits = (c: Context, scope: LimitScope, email: string) =>
  checkLimits(c, scope, ['mailPerClient'], { subject: email, limits: ['mailPerAccountBurst', 'mailPerAccount'] });
