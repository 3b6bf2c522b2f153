import { CONTACT_MIN_FILL_SECONDS, CONTACT_TOKEN_MAX_AGE_SECONDS } from '#common/contact-api.ts';
import type { TokenCheck } from './form-token.ts';

export type SpamReason = 'honeypot' | 'no-token' | 'bad-token' | 'too-fast' | 'stale-token' | 'links';

/** More links than a person asking something needs; link spam carries dozens. */
const MAX_LINKS = 3;
const LINK = /\bhttps?:\/\/|\bwww\.|\[url[=\]]/gi;

/**
 * Why a message looks sent by a robot, or null. A message is spam when the hidden field is filled
 * in; when its time stamp is forged, too fresh (nobody types a message in three seconds) or a day
 * old; when the page's script sent it without a time stamp (the script always asks for one); or
 * when it is mostly links. A plain form post (no script) has no time stamp to show: see
 * docs/decisions/071-contact-spam.md.
 */
export function spamReason(
  input: { website?: string; name: string; message: string },
  token: TokenCheck | null,
  sentByScript: boolean,
): SpamReason | null {
  if (input.website?.trim()) return 'honeypot';
  if (token) {
    if (!token.valid) return 'bad-token';
    if (token.ageSeconds < CONTACT_MIN_FILL_SECONDS) return 'too-fast';
    if (token.ageSeconds > CONTACT_TOKEN_MAX_AGE_SECONDS) return 'stale-token';
  } else if (sentByScript) {
    return 'no-token';
  }
  if ((`${input.name} ${input.message}`.match(LINK)?.length ?? 0) > MAX_LINKS) return 'links';
  return null;
}
