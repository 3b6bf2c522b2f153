import { escapeHtml } from '#common/html.ts';
import type { Language, Texts } from '#common/languages.ts';
import { pagePath } from '#common/routes.ts';
import type { SiteConfig } from '#common/site-config.ts';
import { fill, headerSafe, mailHtml } from '#server/platform/mail/mail-text.ts';
import type { Mail } from '#server/platform/mail/mailer.ts';
import { textAt } from '#server/platform/site-config.ts';

/** The changes to an account's sign-in that its owner is told about by mail. */
export type SecurityEvent =
  | 'totpAdded'
  | 'totpRemoved'
  | 'recoveryCodeUsed'
  | 'recoveryCodesRenewed'
  | 'passkeyAdded'
  | 'passkeyRemoved';

/**
 * Tells the owner that a second factor of their account changed or a recovery code was spent, in
 * the account's language, with what to do if it was not them: someone who got that far knows the
 * password, so the first step is a new one, which also ends every session.
 */
export function securityMail(
  site: SiteConfig,
  texts: Texts,
  to: { email: string; name: string; language: Language },
  event: SecurityEvent,
  details: { left?: number; passkey?: string } = {},
): Mail {
  const { language } = to;
  const values = { ...site.brand, name: to.name, count: String(details.left ?? 0), passkey: details.passkey ?? '' };
  const t = (key: string) => fill(textAt(texts, language, 'login', `securityMail.${key}`), values);
  const intro =
    event === 'recoveryCodeUsed'
      ? t(`${event}.intro_${new Intl.PluralRules(language).select(details.left ?? 0)}`)
      : t(`${event}.intro`);
  const subject = headerSafe(t(`${event}.subject`));
  const resetLink = `${site.siteUrl}${pagePath(language, 'forgotPassword')}`;
  const accountLink = `${site.siteUrl}${pagePath(language, 'account')}`;
  const text = [
    t('greeting'),
    '',
    intro,
    '',
    t('ifYou'),
    '',
    t('notYou'),
    resetLink,
    '',
    t('review'),
    accountLink,
    '',
    t('signature'),
    '',
  ].join('\n');
  const paragraph = (content: string) => `<p style="margin:0 0 16px">${content}</p>`;
  const link = (href: string, label: string) =>
    `<a href="${escapeHtml(href)}" style="color:#1d4ed8">${escapeHtml(label)}</a>`;
  const html = mailHtml(
    language,
    subject,
    [
      paragraph(escapeHtml(t('greeting'))),
      paragraph(escapeHtml(intro)),
      paragraph(escapeHtml(t('ifYou'))),
      paragraph(`${escapeHtml(t('notYou'))}<br>${link(resetLink, resetLink)}`),
      paragraph(`${escapeHtml(t('review'))}<br>${link(accountLink, accountLink)}`),
      paragraph(escapeHtml(t('signature'))),
    ].join('\n'),
  );
  return { to: to.email, language, subject, text, html };
}
