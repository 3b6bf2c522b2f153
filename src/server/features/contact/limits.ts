import type { Limit, LimitHit } from '#server/http/rate-limit.ts';

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

/**
 * How often messages may be sent. Per client address (CONTACT_RATE_LIMIT an hour, 10 by default)
 * and per sender address: a person writes once or twice, and a flood under one address, however
 * many machines send it, stops at a few a day. Spam counts too: a robot gets no further by being
 * recognised. Console actions that mail someone have a limit of their own.
 */
export const CONTACT_LIMITS = {
  contactPerAddress: { hits: 3, windowSeconds: HOUR },
  contactPerAddressDaily: { hits: 10, windowSeconds: DAY },
  repliesPerStaff: { hits: 60, windowSeconds: 10 * 60 },
} as const satisfies Record<string, Limit>;

export const contactPerClient = (hits: number): Limit => ({ hits, windowSeconds: HOUR });

export const addressHits = (email: string): LimitHit[] => [
  { name: 'contactPerAddress', limit: CONTACT_LIMITS.contactPerAddress, subject: email },
  { name: 'contactPerAddressDaily', limit: CONTACT_LIMITS.contactPerAddressDaily, subject: email },
];
