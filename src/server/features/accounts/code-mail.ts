import { escapeHtml } from '#common/html.ts';
import type { Language, Texts } from '#common/languages.ts';
import { pagePath } from '#common/routes.ts';
import type { SiteConfig } from '#common/site-config.ts';
import { mailHtml } from '#server/platform/mail/mail-text.ts';
import type { Mail } from '#server/platform/mail/mailer.ts';
import type { CodePurpose } from './code-queries.ts';

/** Where each mail's texts live, and the page its link opens. */
const SOURCES = {
  verify: { ns: 'validation', key: ['mail'], page: 'validation' },
  reset: { ns: 'login', key: ['forgot', 'mail'], page: 'forgotPassword' },
} as const;

interface MailTexts {
  subject: string;
  button: string;
  greeting: string;
  intro: string;
  link: string;
  validity: string;
  ignore: string;
  signature: string;
}

function mailTexts(texts: Texts, language: Language, kind: CodePurpose): Record<string, unknown> {
  const source = SOURCES[kind];
  let node: unknown = texts[language]?.[source.ns];
  for (const key of source.key) node = (node as Record<string, unknown> | undefined)?.[key];
  if (!node) throw new Error(`No ${kind} mail texts for ${language}`);
  return node as Record<string, unknown>;
}

/**
 * The mail that carries a code, in the visitor's language, as text and HTML. Its link carries the
 * address and the code in the fragment, which browsers never send to a server, so they stay out
 * of access logs and Referer headers.
 */
export function codeMail(
  site: SiteConfig,
  texts: Texts,
  kind: CodePurpose,
  to: { email: string; name: string; language: Language },
  code: string,
  minutes: number,
): Mail {
  const vars: Record<string, string> = { ...site.brand, name: to.name, count: String(minutes) };
  const fill = (text: string) => text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, key: string) => vars[key] ?? match);
  const all = mailTexts(texts, to.language, kind);
  // The validity names a count: the language's plural rules pick its form (validity_one, validity_other …).
  const form = new Intl.PluralRules(to.language).select(minutes);
  const validity = (all[`validity_${form}`] ?? all.validity_other) as string;
  const t = Object.fromEntries(
    Object.entries({ ...all, validity }).map(([key, text]) => [key, fill(String(text))]),
  ) as unknown as MailTexts;
  const link = `${site.siteUrl}${pagePath(to.language, SOURCES[kind].page)}#${new URLSearchParams({ email: to.email, code })}`;

  const text = [
    t.greeting,
    '',
    t.intro,
    '',
    `    ${code}`,
    '',
    t.link,
    link,
    '',
    t.validity,
    t.ignore,
    '',
    t.signature,
    '',
  ].join('\n');
  const paragraph = (content: string) => `<p style="margin:0 0 16px">${content}</p>`;
  const html = mailHtml(
    to.language,
    t.subject,
    [
      paragraph(escapeHtml(t.greeting)),
      paragraph(escapeHtml(t.intro)),
      `<p style="margin:0 0 16px;font-size:32px;font-weight:700;letter-spacing:6px;font-family:ui-monospace,Menlo,Consolas,monospace">${code}</p>`,
      paragraph(escapeHtml(t.link)),
      `<p style="margin:0 0 16px"><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 20px;background:#1d4ed8;color:#ffffff;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(t.button)}</a></p>`,
      paragraph(escapeHtml(t.validity)),
      paragraph(escapeHtml(t.ignore)),
      paragraph(escapeHtml(t.signature)),
    ].join('\n'),
  );
  return { to: to.email, language: to.language, subject: t.subject, text, html };
}
