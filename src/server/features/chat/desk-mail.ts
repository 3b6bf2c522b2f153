import type { ChatMessage, ConsoleConversation } from '#common/chat-api.ts';
import { escapeHtml } from '#common/html.ts';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '#common/languages.ts';
import { consolePath } from '#common/routes.ts';
import type { Deps } from '#server/deps.ts';
import { fill, headerSafe, mailHtml, paragraphs } from '#server/platform/mail/mail-text.ts';
import type { Mail } from '#server/platform/mail/mailer.ts';
import { textAt } from '#server/platform/site-config.ts';

const languageOf = (code: string): Language => (isLanguage(code) ? code : DEFAULT_LANGUAGE);

/** A text of the chat's `deskMail` part in `language`, brand and values filled in. */
function deskText(deps: Pick<Deps, 'texts' | 'site'>, language: Language) {
  return (key: string, values: Record<string, string> = {}) =>
    fill(textAt(deps.texts, language, 'chat', `deskMail.${key}`), { ...deps.site.brand, ...values });
}

/** Who the visitor is, as far as the team knows: their name, their address, or "a visitor". */
function visitorLabel(conversation: ConsoleConversation | null, unknown: string): string {
  return conversation?.account?.name ?? conversation?.visitorEmail ?? unknown;
}

/** Tells a colleague, in their own language, that a conversation was handed to them. */
export function assignedMail(
  deps: Pick<Deps, 'texts' | 'site'>,
  to: { name: string; email: string; language: string },
  by: string,
  conversationId: number,
  conversation: ConsoleConversation | null,
): Mail {
  const language = languageOf(to.language);
  const t = deskText(deps, language);
  const values = { name: to.name, by, visitor: visitorLabel(conversation, t('aVisitor')) };
  const link = `${deps.site.siteUrl}${consolePath('chat', { query: `?conversation=${conversationId}` })}`;
  const subject = headerSafe(t('assignedSubject', values));
  const intro = t('assignedText', values);
  const text = [t('hello', values), '', intro, '', link, ''].join('\n');
  const html = mailHtml(
    language,
    subject,
    `${paragraphs(t('hello', values))}\n${paragraphs(intro)}\n<p style="margin:0 0 16px"><a href="${escapeHtml(link)}">${escapeHtml(t('open'))}</a></p>`,
  );
  return { to: to.email, language, subject, text, html };
}

/**
 * The whole conversation, as the visitor saw it, mailed at their request in the conversation's
 * language. Bodies are the visitor's and the team's own words: escaped, never linked.
 */
export function transcriptMail(
  deps: Pick<Deps, 'texts' | 'site'>,
  to: string,
  conversationLanguage: string,
  messages: ChatMessage[],
): Mail {
  const language = languageOf(conversationLanguage);
  const t = deskText(deps, language);
  const when = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  const who = (message: ChatMessage) => (message.author === 'visitor' ? t('you') : t('team'));
  const stamp = (message: ChatMessage) => `${who(message)}, ${when.format(new Date(message.createdAt))} UTC`;
  const subject = headerSafe(t('transcriptSubject'));
  const text = [
    t('transcriptIntro'),
    '',
    ...messages.flatMap((message) => [
      `${stamp(message)}:`,
      ...message.body.split('\n').map((line) => `  ${line}`),
      '',
    ]),
    t('transcriptNoReply'),
    '',
    t('signature'),
    '',
  ].join('\n');
  const quoted = messages
    .map(
      (message) =>
        `<div style="margin:0 0 12px;padding:8px 12px;border-radius:8px;background:${message.author === 'visitor' ? '#eef2f7' : '#e8f0fe'}">` +
        `<div style="font-weight:600">${escapeHtml(stamp(message))}</div>` +
        `<div style="white-space:pre-wrap">${escapeHtml(message.body)}</div></div>`,
    )
    .join('\n');
  const html = mailHtml(
    language,
    subject,
    `${paragraphs(t('transcriptIntro'))}\n${quoted}\n${paragraphs(t('transcriptNoReply'))}\n${paragraphs(t('signature'))}`,
  );
  return { to, language, subject, text, html };
}
