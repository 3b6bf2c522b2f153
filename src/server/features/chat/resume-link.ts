import { timingSafeEqual } from 'node:crypto';
import { CHAT_ENDING_API, RESUME_LINK_DAYS } from '#common/chat-desk-api.ts';
import type { Language } from '#common/languages.ts';
import type { Deps } from '#server/deps.ts';
import { keyedHash } from '#server/platform/secrets.ts';

const signature = (deps: Pick<Deps, 'secret'>, conversationId: number, expires: number) =>
  keyedHash(deps.secret, 'chat-resume', String(conversationId), String(expires));

/**
 * The link a mail about a conversation carries: signed with the server's secret, so only the
 * server makes them, and good for RESUME_LINK_DAYS, so that an old mail found later in a mailbox
 * no longer opens the conversation.
 */
export function resumeLink(
  deps: Pick<Deps, 'secret' | 'site'>,
  conversationId: number,
  language: Language,
  now = Date.now(),
): string {
  const expires = Math.floor(now / 1000) + RESUME_LINK_DAYS * 24 * 60 * 60;
  const query = new URLSearchParams({
    c: String(conversationId),
    e: String(expires),
    l: language,
    s: signature(deps, conversationId, expires),
  });
  return `${deps.site.siteUrl}${CHAT_ENDING_API.resume}?${query}`;
}

/** The conversation a link names, when its signature holds and it has not expired; else null. */
export function verifyResumeLink(
  deps: Pick<Deps, 'secret'>,
  link: { c: string; e: string; s: string },
  now = Date.now(),
): number | null {
  const conversationId = Number(link.c);
  const expires = Number(link.e);
  const expected = Buffer.from(signature(deps, conversationId, expires));
  const given = Buffer.from(link.s);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return expires * 1000 > now ? conversationId : null;
}
