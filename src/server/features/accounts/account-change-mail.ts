import { escapeHtml } from '#common/html.ts';
import { DEFAULT_LANGUAGE, isLanguage, type Language, type Texts } from '#common/languages.ts';
import { pagePath } from '#common/routes.ts';
import type { SiteConfig } from '#common/site-config.ts';
import { fill, headerSafe, mailHtml } from '#server/platform/mail/mail-text.ts';
import type { Mail } from '#server/platform/mail/mailer.ts';
import { textAt } from '#server/platform/site-config.ts';

/** Whom a mail goes to and in which language: the account's own, whatever page asked. */
export interface Recipient {
  email: string;
  name: string;
  language: string;
}

/** One block of a mail: a paragraph, a paragraph ending in a link, or a code (indented in text, large in HTML). */
type Block = { text: string } | { text: string; href: string } | { code: string };

function composeMail(language: Language, to: string, subject: string, blocks: Block[]): Mail {
  const text = `${blocks
    .map((block) =>
      'code' in block ? `    ${block.code}` : 'href' in block ? `${block.text}\n${block.href}` : block.text,
    )
    .join('\n\n')}\n`;
  const paragraph = (content: string) => `<p style="margin:0 0 16px">${content}</p>`;
  const html = mailHtml(
    language,
    subject,
    blocks
      .map((block) =>
        'code' in block
          ? `<p style="margin:0 0 16px;font-size:28px;font-weight:700;letter-spacing:4px">${escapeHtml(block.code)}</p>`
          : 'href' in block
            ? paragraph(
                `${escapeHtml(block.text)}<br><a href="${escapeHtml(block.href)}" style="color:#1d4ed8">${escapeHtml(block.href)}</a>`,
              )
            : paragraph(escapeHtml(block.text)),
      )
      .join('\n'),
  );
  return { to, language, subject: headerSafe(subject), text, html };
}

/** The texts of the account page's mails (namespace `settings`, under `mail`), filled in. */
function mailTexts(site: SiteConfig, texts: Texts, recipient: Recipient, values: Record<string, string> = {}) {
  const language = isLanguage(recipient.language) ? recipient.language : DEFAULT_LANGUAGE;
  const all = { ...site.brand, name: recipient.name, ...values };
  return { language, t: (key: string) => fill(textAt(texts, language, 'settings', `mail.${key}`), all) };
}

/** Tells the owner their password was changed, and what to do if it was not them. */
export function passwordChangedMail(site: SiteConfig, texts: Texts, account: Recipient): Mail {
  const { language, t } = mailTexts(site, texts, account);
  return composeMail(language, account.email, t('passwordChanged.subject'), [
    { text: t('greeting') },
    { text: t('passwordChanged.intro') },
    { text: t('ifYou') },
    { text: t('passwordChanged.notYou'), href: `${site.siteUrl}${pagePath(language, 'forgotPassword')}` },
    { text: t('signature') },
  ]);
}

/** The code that confirms a new address, sent to that address. */
export function emailCodeMail(
  site: SiteConfig,
  texts: Texts,
  account: Recipient,
  newEmail: string,
  code: string,
  minutes: number,
): Mail {
  const { language, t } = mailTexts(site, texts, account, { count: String(minutes), email: newEmail });
  return composeMail(language, newEmail, t('emailCode.subject'), [
    { text: t('greeting') },
    { text: t('emailCode.intro') },
    { code },
    { text: t(`emailCode.validity_${new Intl.PluralRules(language).select(minutes)}`) },
    { text: t('emailCode.ignore') },
    { text: t('signature') },
  ]);
}

/**
 * Tells the old address that the account's address changed, with the link that puts it back. The
 * token rides in the fragment, which browsers never send to a server, so it stays out of logs.
 */
export function emailChangedMail(
  site: SiteConfig,
  texts: Texts,
  account: Recipient & { newEmail: string },
  undoToken: string,
  days: number,
): Mail {
  const { language, t } = mailTexts(site, texts, account, { newEmail: account.newEmail, count: String(days) });
  const link = `${site.siteUrl}${pagePath(language, 'emailUndo')}#${new URLSearchParams({ token: undoToken })}`;
  return composeMail(language, account.email, t('emailChanged.subject'), [
    { text: t('greeting') },
    { text: t('emailChanged.intro') },
    { text: t('ifYou') },
    { text: t(`emailChanged.undo_${new Intl.PluralRules(language).select(days)}`), href: link },
    { text: t('signature') },
  ]);
}
