import { escapeHtml } from '#common/html.ts';
import type { Texts } from '#common/languages.ts';
import { LANGUAGE_NAMES, type Language } from '#common/languages.ts';
import type { SiteConfig } from '#common/site-config.ts';
import { fill, headerSafe, mailHtml, paragraphs, quoted } from '#server/platform/mail/mail-text.ts';
import type { Mail } from '#server/platform/mail/mailer.ts';
import { textAt } from '#server/platform/site-config.ts';
import type { StoredMessage } from './contact-queries.ts';

/** The label of a subject id in a language, or the id itself for one the configuration has since dropped. */
export function subjectLabel(texts: Texts, language: Language, subject: string): string {
  const label = (texts[language]?.contact?.subjects as Record<string, unknown> | undefined)?.[subject];
  return typeof label === 'string' ? label : subject;
}

const when = (date: Date, language: Language) =>
  `${new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;

/**
 * The team's notice of a new message, in the team's language (CONTACT_LANGUAGE), with the message
 * and a link to it in the console. Reply-To is the sender, so answering from a mail program
 * reaches them; answers from the console stay in the thread. Only messages not taken for spam get one.
 */
export function notificationMail(
  site: SiteConfig,
  texts: Texts,
  to: { email: string; language: Language },
  message: StoredMessage,
): Mail {
  const language = to.language;
  const t = (key: string, values: Record<string, string> = {}) =>
    fill(textAt(texts, language, 'console', `mail.notification.${key}`), { ...site.brand, ...values });
  const subject = subjectLabel(texts, language, message.subject);
  const link = `${site.siteUrl}/console/messages/${message.id}`;
  const page = message.page ? `${site.siteUrl}${message.page}` : '–';
  const facts: [string, string][] = [
    [t('from'), `${message.name} <${message.email}>`],
    [t('subject'), subject],
    [t('language'), LANGUAGE_NAMES[message.language] ?? message.language],
    [t('page'), page],
    [t('received'), when(message.createdAt, language)],
  ];
  const title = headerSafe(t('title', { subject, name: message.name }));
  const text = [
    t('intro'),
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    '',
    message.body,
    '',
    t('open'),
    link,
    '',
    t('replyNote'),
    '',
  ].join('\n');
  const html = mailHtml(
    language,
    title,
    [
      `<p style="margin:0 0 16px">${escapeHtml(t('intro'))}</p>`,
      `<table style="margin:0 0 16px;border-collapse:collapse">${facts
        .map(
          ([label, value]) =>
            `<tr><th scope="row" style="text-align:start;padding:2px 12px 2px 0;vertical-align:top">${escapeHtml(label)}</th><td style="padding:2px 0">${escapeHtml(value)}</td></tr>`,
        )
        .join('')}</table>`,
      `<div style="margin:0 0 16px;padding:12px 16px;border-inline-start:4px solid #1d4ed8;background:#f4f6fa">${paragraphs(message.body)}</div>`,
      `<p style="margin:0 0 16px"><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 20px;background:#1d4ed8;color:#ffffff;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(t('button'))}</a></p>`,
      `<p style="margin:0;color:#4b5563;font-size:14px">${escapeHtml(t('replyNote'))}</p>`,
    ].join('\n'),
  );
  return { to: to.email, language, subject: title, text, html, replyTo: message.email };
}

/**
 * A staff member's answer to the sender, in the language they wrote in, quoting their message.
 * Reply-To is the team's address, so the sender can simply answer the mail.
 */
export function answerMail(
  site: SiteConfig,
  texts: Texts,
  team: string,
  message: StoredMessage,
  reply: { body: string; author: string },
): Mail {
  const language = message.language;
  const values = { ...site.brand, name: message.name, author: reply.author };
  const t = (key: string, extra: Record<string, string> = {}) =>
    fill(textAt(texts, language, 'contact', `mail.reply.${key}`), { ...values, ...extra });
  const subject = headerSafe(t('subject', { subject: subjectLabel(texts, language, message.subject) }));
  const wrote = t('wrote', { date: when(message.createdAt, language) });
  const text = [
    t('greeting'),
    '',
    reply.body,
    '',
    t('signature'),
    '',
    t('answerHint'),
    '',
    wrote,
    quoted(message.body),
    '',
  ].join('\n');
  const html = mailHtml(
    language,
    subject,
    [
      `<p style="margin:0 0 16px">${escapeHtml(t('greeting'))}</p>`,
      paragraphs(reply.body),
      paragraphs(t('signature')),
      `<p style="margin:0 0 16px;color:#4b5563;font-size:14px">${escapeHtml(t('answerHint'))}</p>`,
      `<p style="margin:0 0 8px;color:#4b5563;font-size:14px">${escapeHtml(wrote)}</p>`,
      `<blockquote style="margin:0;padding:0 16px;border-inline-start:4px solid #d1d5db;color:#4b5563">${paragraphs(message.body)}</blockquote>`,
    ].join('\n'),
  );
  return { to: message.email, language, subject, text, html, replyTo: team };
}
