import { escapeHtml } from '#common/html.ts';
import type { Language, Texts } from '#common/languages.ts';
import type { StaffRole } from '#common/roles.ts';
import { consolePath } from '#common/routes.ts';
import type { SiteConfig } from '#common/site-config.ts';
import { fill, headerSafe, mailHtml } from '#server/platform/mail/mail-text.ts';
import type { Mail } from '#server/platform/mail/mailer.ts';
import { textAt } from '#server/platform/site-config.ts';

/** The mail that brings someone new onto the staff: who invited them, as what, and the link to set a password. */
export function inviteMail(
  site: SiteConfig,
  texts: Texts,
  to: { email: string; name: string; language: Language },
  invite: { inviter: string; role: StaffRole; link: string; hours: number },
): Mail {
  const { language } = to;
  const values = {
    ...site.brand,
    name: to.name,
    inviter: invite.inviter,
    role: textAt(texts, language, 'console', `roles.${invite.role}`),
    count: String(invite.hours),
    console: `${site.siteUrl}${consolePath('inbox')}`,
  };
  const t = (key: string) => fill(textAt(texts, language, 'console', `mail.invite.${key}`), values);
  // The validity names a count: the language's plural rules pick its form (validity_one, validity_other …).
  const validity = t(`validity_${new Intl.PluralRules(language).select(invite.hours)}`);
  const subject = headerSafe(t('subject'));
  // Staff need a second factor before the console opens: said now, not at the first sign-in.
  const text = [
    t('greeting'),
    '',
    t('intro'),
    '',
    invite.link,
    '',
    validity,
    t('after'),
    t('secondFactor'),
    '',
    t('ignore'),
    '',
  ].join('\n');
  const html = mailHtml(
    language,
    subject,
    [
      `<p style="margin:0 0 16px">${escapeHtml(t('greeting'))}</p>`,
      `<p style="margin:0 0 16px">${escapeHtml(t('intro'))}</p>`,
      `<p style="margin:0 0 16px"><a href="${escapeHtml(invite.link)}" style="display:inline-block;padding:10px 20px;background:#1d4ed8;color:#ffffff;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(t('button'))}</a></p>`,
      `<p style="margin:0 0 16px">${escapeHtml(validity)} ${escapeHtml(t('after'))}</p>`,
      `<p style="margin:0 0 16px">${escapeHtml(t('secondFactor'))}</p>`,
      `<p style="margin:0;color:#4b5563;font-size:14px">${escapeHtml(t('ignore'))}</p>`,
    ].join('\n'),
  );
  return { to: to.email, language, subject, text, html };
}
