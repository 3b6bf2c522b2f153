import type { ChatMessage } from '#common/chat-api.ts';
import { escapeHtml } from '#common/html.ts';
import { DEFAULT_LANGUAGE, isLanguage, type Language, type Texts } from '#common/languages.ts';
import { pagePath } from '#common/routes.ts';
import type { SiteConfig } from '#common/site-config.ts';
import type { Mail } from '#server/platform/mail/mailer.ts';

/** The texts of the mail, filled in the conversation's language when the reply is written. */
export interface ReplyMailTexts {
  language: Language;
  subject: string;
  greeting: string;
  intro: string;
  you: string;
  team: string;
  link: string;
  button: string;
  url: string;
  noReply: string;
  signature: string;
}

type MailKey = Exclude<keyof ReplyMailTexts, 'language' | 'url'>;
const KEYS: MailKey[] = ['subject', 'greeting', 'intro', 'you', 'team', 'link', 'button', 'noReply', 'signature'];

/** The mail's texts in `language` (English when the conversation's language has none), brand filled in. */
export function replyMailTexts(site: SiteConfig, texts: Texts, conversationLanguage: string): ReplyMailTexts {
  const language = isLanguage(conversationLanguage) ? conversationLanguage : DEFAULT_LANGUAGE;
  const mail = (texts[language]?.chat as { mail?: Record<string, string> } | undefined)?.mail;
  if (!mail) throw new Error(`No chat mail texts for ${language}`);
  const vars: Record<string, string> = { ...site.brand };
  const fill = (text: string) => text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, key: string) => vars[key] ?? match);
  const filled = Object.fromEntries(KEYS.map((key) => [key, fill(mail[key] ?? '')])) as Record<MailKey, string>;
  return { ...filled, language, url: `${site.siteUrl}${pagePath(language, 'home')}` };
}

/**
 * The operator's replies the visitor did not see, mailed with the messages before them, as text
 * and HTML. Message bodies are the visitor's and the team's own words: escaped, never linked.
 */
export function unreadReplyMail(to: string, t: ReplyMailTexts, messages: ChatMessage[]): Mail {
  const who = (message: ChatMessage) => (message.author === 'visitor' ? t.you : t.team);
  const text = [
    t.greeting,
    '',
    t.intro,
    '',
    ...messages.flatMap((message) => [`${who(message)}:`, ...message.body.split('\n').map((line) => `  ${line}`), '']),
    t.link,
    t.url,
    '',
    t.noReply,
    '',
    t.signature,
    '',
  ].join('\n');
  const paragraph = (content: string) => `<p style="margin:0 0 16px">${content}</p>`;
  const quoted = messages
    .map(
      (message) =>
        `<div style="margin:0 0 12px;padding:8px 12px;border-radius:8px;background:${message.author === 'visitor' ? '#eef2f7' : '#e8f0fe'}">` +
        `<div style="font-weight:600">${escapeHtml(who(message))}</div>` +
        `<div style="white-space:pre-wrap">${escapeHtml(message.body)}</div></div>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="${t.language}">
<head><meta charset="utf-8"><title>${escapeHtml(t.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6fa;color:#1a1d23;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','Noto Sans Thai',Tahoma,sans-serif;line-height:1.6">
<div style="max-width:32rem;margin:0 auto;padding:24px;background:#ffffff;border-radius:12px">
${paragraph(escapeHtml(t.greeting))}
${paragraph(escapeHtml(t.intro))}
${quoted}
${paragraph(escapeHtml(t.link))}
<p style="margin:0 0 16px"><a href="${escapeHtml(t.url)}" style="display:inline-block;padding:10px 20px;background:#1d4ed8;color:#ffffff;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(t.button)}</a></p>
${paragraph(escapeHtml(t.noReply))}
${paragraph(escapeHtml(t.signature))}
</div>
</body>
</html>
`;
  return { to, language: t.language, subject: t.subject, text, html };
}
