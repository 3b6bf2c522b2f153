import type { ErrorCode } from '#common/error-codes.ts';
import type { ErrorDetails } from '#common/error-texts.ts';
import { escapeHtml } from '#common/html.ts';
import { directionOf, type Language, type Texts } from '#common/languages.ts';
import { type PageId, pagePath } from '#common/routes.ts';
import type { SiteConfig } from '#common/site-config.ts';
import { contentSecurityPolicy, inlineCodeOf } from '#server/http/security-headers.ts';
import { errorLine } from '#server/platform/error-line.ts';
import { fill } from '#server/platform/mail/mail-text.ts';
import { textAt } from '#server/platform/site-config.ts';
import type { PageHtml } from '#server/site/build-files.ts';

/** What the page says above the form: an error (with the fields it names), or a notice. */
export type FormMessage =
  | { kind: 'error'; details: ErrorDetails; fields?: Partial<Record<string, ErrorCode>> }
  | { kind: 'notice'; text: string };

export interface FormAnswer {
  page: PageId;
  language: Language;
  /** What the visitor sent, put back into the fields of those names (never a password). */
  values: Record<string, string>;
  message: FormMessage;
}

/** Typed by the visitor but never written back into a page. */
const NEVER_KEPT = new Set(['password', 'website', 'language']);

/** A field's name as the pages write them; any other name a post carries is left alone. */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9]*$/;
const inputPattern = (name: string) => new RegExp(`<(?:input|select)\\b[^>]*\\bname="${name}"[^>]*>`);

/** The attribute's value in a tag, or undefined. */
const attribute = (tag: string, name: string) => tag.match(new RegExp(`\\b${name}="([^"]*)"`))?.[1];

/** The tag with a value put back: a text input's value, a checkbox checked. */
function withValue(tag: string, value: string): string {
  if (/\btype="checkbox"/.test(tag)) return tag.replace(/\s*\/?>$/, ' checked=""/>');
  if (tag.startsWith('<select')) return tag;
  return tag.replace(/\bvalue="[^"]*"/, () => `value="${escapeHtml(value)}"`);
}

/**
 * The built page of a form, as the answer to that form posted without JavaScript: what was typed
 * is back in its fields (passwords excepted), each refused field says why under it (linked by
 * `aria-describedby`, the first one focused on load by `autofocus`), and the form opens with the
 * error or the notice. The app's scripts are taken out: the page was changed after it was built,
 * so the app could not take it over as it is, and the form works as it is without them. The page
 * is never indexed. Without a build (tests of the bare API, development) a short page says the
 * same and links back to the form. `policy` allows the inline styles the page kept.
 */
export function formAnswerPage(
  pages: PageHtml | undefined,
  site: SiteConfig,
  texts: Texts,
  answer: FormAnswer,
): { html: string; policy: string } {
  const { language, message } = answer;
  const fields = message.kind === 'error' ? (message.fields ?? {}) : {};
  const lineOf = (code: ErrorCode) => errorLine(texts, site, language, { code });
  const lead = message.kind === 'error' ? errorLine(texts, site, language, message.details) : message.text;
  const built = pages?.(pagePath(language, answer.page));
  if (!built) return { html: shortPage(site, texts, answer, lead), policy: contentSecurityPolicy() };

  let html = built.html.replace(/<script\b[^>]*>[\s\S]*?<\/script>\n?/g, '');
  if (!/<meta name="robots"/.test(html)) {
    html = html.replace('<meta charset="utf-8">', '<meta charset="utf-8">\n<meta name="robots" content="noindex">');
  }
  if (message.kind === 'error') {
    const errorWord = textAt(texts, language, 'common', 'toasts.types.error');
    html = html.replace('<title>', () => `<title>${escapeHtml(errorWord)}: `);
  }

  for (const [name, value] of Object.entries(answer.values)) {
    if (NEVER_KEPT.has(name) || !FIELD_NAME.test(name)) continue;
    html = html.replace(inputPattern(name), (tag) => withValue(tag, value));
  }

  let focused = false;
  let unplaced = false;
  // In the page's order, so that the first field marked is the one focused.
  const position = (name: string) =>
    (FIELD_NAME.test(name) && inputPattern(name).exec(html)?.index) || Number.POSITIVE_INFINITY;
  const refused = Object.entries(fields).sort(([a], [b]) => position(a) - position(b));
  for (const [name, code] of refused) {
    const found = FIELD_NAME.test(name) ? inputPattern(name).exec(html) : null;
    const id = found && attribute(found[0], 'id');
    if (!found || !id || !code) {
      unplaced = true;
      continue;
    }
    const errorId = `${id}-error`;
    const describedBy = [attribute(found[0], 'aria-describedby'), errorId].filter(Boolean).join(' ');
    let tag = found[0]
      .replace(/\s*\baria-describedby="[^"]*"/, '')
      .replace(/^<(input|select)/, `<$1 aria-invalid="true" aria-describedby="${describedBy}"`);
    if (!focused) tag = tag.replace(/^<(input|select)/, '<$1 autofocus=""');
    focused = true;
    const before = html.slice(0, found.index);
    const after = html.slice(found.index + found[0].length);
    // The field's box is the last one opened before its input (not its parts, `field__…`); its
    // message line the first after.
    const box = [...before.matchAll(/<div class="field(?=[" ])/g)].at(-1);
    const boxEnd = box ? box.index + box[0].length : -1;
    const markedBefore = box ? `${before.slice(0, boxEnd)} field--invalid${before.slice(boxEnd)}` : before;
    const line = `<p id="${errorId}" class="field__error">${escapeHtml(lineOf(code))}</p>`;
    const message = '<div class="field__message" aria-live="polite">';
    html = `${markedBefore}${tag}${after.replace(`${message}</div>`, () => `${message}${line}</div>`)}`;
  }

  // The form's opening line: a field's own error is under it, so this one says what the page is about.
  const top =
    message.kind === 'notice'
      ? `<p class="auth__notice" role="status">${escapeHtml(lead)}</p>`
      : `<p class="field__error" role="alert">${escapeHtml(focused && !unplaced ? lineOf('VALIDATION_ERROR') : lead)}</p>`;
  html = html.replace(/<form\b[^>]*>(?:<p class="form__note">[\s\S]*?<\/p>)?/, (opening) => `${opening}${top}`);
  return { html, policy: contentSecurityPolicy(inlineCodeOf(html, built.inline)) };
}

/** Without a built page: the message, in the page's language, and the way back to the form. */
function shortPage(site: SiteConfig, texts: Texts, answer: FormAnswer, lead: string): string {
  const t = (ns: string, key: string) => fill(textAt(texts, answer.language, ns, key), site.brand);
  return `<!doctype html>
<html lang="${answer.language}" dir="${directionOf(answer.language)}">
<head>
<meta charset="utf-8">
<meta name="robots" content="noindex">
<title>${escapeHtml(site.brand.siteName)}</title>
</head>
<body>
<main>
<p role="${answer.message.kind === 'error' ? 'alert' : 'status'}">${escapeHtml(lead)}</p>
<p><a href="${pagePath(answer.language, answer.page)}">${escapeHtml(t('common', 'error.retry'))}</a></p>
</main>
</body>
</html>
`;
}
