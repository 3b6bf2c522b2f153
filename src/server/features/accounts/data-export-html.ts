import { escapeHtml } from '#common/html.ts';
import type { Language, Texts } from '#common/languages.ts';
import type { SiteConfig } from '#common/site-config.ts';
import { fill } from '#server/platform/mail/mail-text.ts';
import { textAt } from '#server/platform/site-config.ts';
import type { AccountData } from './data-export.ts';

/** Fields whose values are the site's own words ('granted', 'totp', …), said in the reader's language. */
const WORDS = new Set(['factors', 'analytics', 'keptIn', 'role', 'purpose', 'author', 'status', 'report', 'kind']);

/**
 * The same data as the JSON file, as a page to read in the account's language: each part under
 * its heading, each record as a list of labelled values, dates written out. Everything the data
 * holds is shown; a field without a label of its own shows its name.
 */
export function dataExportHtml(
  site: SiteConfig,
  texts: Texts,
  language: Language,
  data: AccountData,
  exportedAt: Date,
): string {
  const t = (key: string, values: Record<string, string> = {}) =>
    fill(textAt(texts, language, 'settings', `export.${key}`), { ...site.brand, ...values });
  const optional = (key: string) => {
    try {
      return t(key);
    } catch {
      return null;
    }
  };
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' });

  const word = (field: string, text: string) => (WORDS.has(field) ? (optional(`values.${text}`) ?? text) : text);
  const value = (field: string, item: unknown): string => {
    if (item === null || item === undefined || item === '')
      return `<span class="none">${escapeHtml(t('empty'))}</span>`;
    if (item instanceof Date)
      return escapeHtml(field.endsWith('Day') ? date.format(item) : `${dateTime.format(item)} UTC`);
    if (Array.isArray(item)) {
      if (item.length === 0) return `<span class="none">${escapeHtml(t('none'))}</span>`;
      if (item.every((entry) => typeof entry !== 'object' || entry === null)) {
        return escapeHtml(item.map((entry) => word(field, String(entry))).join(', '));
      }
      return `<ol>${item.map((entry) => `<li>${record(entry as Record<string, unknown>)}</li>`).join('')}</ol>`;
    }
    if (typeof item === 'object') return record(item as Record<string, unknown>);
    return escapeHtml(word(field, String(item))).replace(/\n/g, '<br>');
  };
  const record = (row: Record<string, unknown>) =>
    `<dl>${Object.entries(row)
      .map(
        ([field, item]) => `<dt>${escapeHtml(optional(`fields.${field}`) ?? field)}</dt><dd>${value(field, item)}</dd>`,
      )
      .join('')}</dl>`;
  const section = (key: string, content: unknown) =>
    `<section><h2>${escapeHtml(optional(`sections.${key}`) ?? key)}</h2>${
      Array.isArray(content) && content.length === 1 && typeof content[0] === 'object'
        ? record(content[0] as Record<string, unknown>)
        : value(key, content)
    }</section>`;

  const title = t('title');
  const parts = [
    section('profile', data.profile),
    section('consent', data.consent),
    ...Object.entries(data.sections).map(([key, content]) => section(key, content)),
    section('mailQueued', data.mail.queued),
    section('mailKept', data.mail.kept),
  ];
  return `<!doctype html>
<html lang="${escapeHtml(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','Noto Sans Thai',sans-serif;line-height:1.5;max-width:48rem;margin:0 auto;padding:1.5rem;color:#1a1d23}
h2{margin-top:2rem;border-bottom:1px solid #d0d5dd}dl{display:grid;grid-template-columns:minmax(8rem,auto) 1fr;gap:.25rem 1rem;margin:.5rem 0}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}ol{padding-left:1.25rem}li{margin:.75rem 0}.none{color:#4b5563}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(t('intro', { date: `${dateTime.format(exportedAt)} UTC` }))}</p>
<p>${escapeHtml(t('left'))}</p>
${parts.join('\n')}
</main>
</body>
</html>
`;
}
