import { CHAT_ENDING_API, type RatingAnswer } from '#common/chat-desk-api.ts';
import { RatingSchema, ResumeQuerySchema, TranscriptSchema } from '#common/chat-desk-schemas.ts';
import { DEFAULT_LANGUAGE, isLanguage } from '#common/languages.ts';
import { pagePath } from '#common/routes.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody, queryParams } from '#server/http/json-body.ts';
import { queueMail } from '#server/platform/mail/mail-queue.ts';
import { type ChatDeps, HISTORY_LIMIT } from './chat-deps.ts';
import { chatHit } from './chat-limits.ts';
import { findConversation, lastMessages } from './chat-queries.ts';
import { transcriptMail } from './desk-mail.ts';
import { addVisitorToken, saveRating } from './ending-queries.ts';
import { verifyResumeLink } from './resume-link.ts';
import { hashChatToken, identifyVisitor, newChatToken, setChatCookies } from './visitor-identity.ts';

/**
 * The end of a conversation and the way back to it: once the team closed it, the visitor may rate
 * it and have it mailed to them; a mail's signed link opens it in the browser the mail is read in.
 */
export function chatEndingRoutes(deps: ChatDeps) {
  const { db, limiter } = deps;
  const routes = newRoutes();

  /** The visitor's own conversation, closed by the team: rating and transcript wait for that. */
  const closedConversation = async (c: Parameters<typeof identifyVisitor>[0]) => {
    const { conversation } = await identifyVisitor(c, deps);
    if (!conversation) throw new ApiError(404, 'NOT_FOUND');
    if (conversation.status !== 'closed') throw new ApiError(409, 'CONVERSATION_OPEN');
    return conversation;
  };

  routes.post(CHAT_ENDING_API.rating, jsonBody(RatingSchema), async (c) => {
    const conversation = await closedConversation(c);
    await limiter.enforce([chatHit('endingsPerConversation', conversation.id)]);
    const { score, comment } = c.req.valid('json');
    await saveRating(db, conversation.id, score, comment || null);
    return c.json({ rating: { score, comment: comment || null } } satisfies RatingAnswer);
  });

  routes.post(CHAT_ENDING_API.transcript, jsonBody(TranscriptSchema), async (c) => {
    const conversation = await closedConversation(c);
    const to = c.req.valid('json').email ?? conversation.visitorEmail ?? conversation.accountEmail;
    if (!to) throw new ApiError(400, 'VALIDATION_ERROR', { fields: { email: 'MISSING_REQUIRED_FIELD' } });
    await limiter.enforce([chatHit('endingsPerConversation', conversation.id)]);
    // Only what the visitor's side shows: notes stay the team's.
    const messages = await lastMessages(db, conversation.id, HISTORY_LIMIT);
    await queueMail(db, transcriptMail(deps, to, conversation.language, messages));
    return c.json({ email: to }, 202);
  });

  // Opened from a mail: a link with a bad signature, expired, or to a conversation that is gone or
  // ended leads to the home page; a good one gives this browser a token of its own for the
  // conversation (the first browser keeps its own) and opens the chat there.
  routes.get(CHAT_ENDING_API.resume, queryParams(ResumeQuerySchema), async (c) => {
    const link = c.req.valid('query');
    const asked = c.req.query('l');
    const language = isLanguage(asked) ? asked : DEFAULT_LANGUAGE;
    const home = pagePath(language, 'home');
    const id = verifyResumeLink(deps, link);
    const conversation = id === null ? null : await findConversation(db, id);
    if (!conversation || conversation.visitorEnded) return c.redirect(home, 303);
    if (conversation.accountId) {
      // Tied to an account: only its owner, signed in, may read it (see visitor-identity.ts).
      setChatCookies(c);
      const next = `${home}#chat`;
      return c.redirect(`${pagePath(language, 'login')}?${new URLSearchParams({ next })}`, 303);
    }
    const token = newChatToken();
    await addVisitorToken(db, conversation.id, hashChatToken(token));
    setChatCookies(c, token);
    return c.redirect(`${home}#chat`, 303);
  });

  return routes;
}
