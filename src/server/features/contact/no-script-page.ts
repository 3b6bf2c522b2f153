import type { ErrorCode } from '#common/error-codes.ts';
import { FAVICON_LINK } from '#common/head.ts';
import { escapeHtml } from '#common/html.ts';
import type { Texts } from '#common/languages.ts';
import { directionOf, type Language } from '#common/languages.ts';
import { pagePath } from '#common/routes.ts';
import type { SiteConfig } from '#common/site-config.ts';
import { errorLine } from '#server/platform/error-line.ts';
import { fill } from '#server/platform/mail/mail-text.ts';
import { textAt } from '#server/platform/site-config.ts';

/** The form's fields in the order the page shows them, with the key of each one's label. */
const FIELDS = [
  ['name', 'form.name'],
  ['email', 'form.email'],
  ['subject', 'form.subject'],
  ['message', 'form.message'],
] as const;

/**
 * What a visitor without JavaScript sees when the server refuses a message: the browser checked the
 * fields first (required, lengths, the address), so this is rare, and a plain page in their language
 * that says what to change and links back to the form is enough. It needs no script and no style,
 * so it fits the site's Content-Security-Policy as it is.
 */
export function notSentPage(
  site: SiteConfig,
  texts: Texts,
  language: Language,
  problem: { code: ErrorCode; fields?: Partial<Record<string, ErrorCode>> },
): string {
  const t = (ns: string, key: string) => fill(textAt(texts, language, ns, key), site.brand);
  const lineFor = (code: ErrorCode) => errorLine(texts, site, language, { code });
  const items = FIELDS.filter(([name]) => problem.fields?.[name]).map(
    ([name, label]) =>
      `<li><strong>${escapeHtml(t('contact', label))}</strong>: ${escapeHtml(lineFor(problem.fields?.[name] ?? 'INVALID_REQUEST'))}</li>`,
  );
  const lead =
    problem.code === 'TOO_MANY_REQUESTS'
      ? t('contact', 'notSent.tooMany')
      : items.length > 0
        ? t('contact', 'notSent.lead')
        : lineFor(problem.code);
  const title = t('contact', 'notSent.title');
  return `<!doctype html>
<html lang="${language}" dir="${directionOf(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} – ${escapeHtml(site.brand.siteName)}</title>
${FAVICON_LINK}
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(lead)}</p>
${items.length > 0 ? `<ul>${items.join('')}</ul>` : ''}
<p>${escapeHtml(t('contact', 'notSent.back'))}: <a href="${pagePath(language, 'contact')}">${escapeHtml(t('contact', 'notSent.backLink'))}</a></p>
</main>
</body>
</html>
`;
}
