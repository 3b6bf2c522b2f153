/** Small pieces every mail that carries someone's words needs. */
import { escapeHtml } from '#common/html.ts';

/** Fills `{{name}}` placeholders; one that has no value stays as written. */
export const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, key: string) => values[key] ?? match);

/** Longest subject line worth sending; mail clients cut long ones anyway. */
const MAX_HEADER_LENGTH = 200;

/**
 * Text that goes into a header (a subject line): every line break and control character becomes a
 * space, so no input can end the header and start another one (Bcc: …). nodemailer folds CR/LF in a
 * subject into spaces as well; this does not rely on it.
 */
export function headerSafe(text: string): string {
  const line = text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return [...line].slice(0, MAX_HEADER_LENGTH).join('');
}

/** Plain text as HTML paragraphs, escaped, with its line breaks kept. */
export const paragraphs = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((block) => `<p style="margin:0 0 16px;white-space:pre-wrap">${escapeHtml(block)}</p>`)
    .join('\n');

/** A quotation of someone's text, each line with `> ` in plain text. */
export const quoted = (text: string) =>
  text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');

/** Where the frame shows the site's logo; the mailer puts it there when the site has one (`withLogo`). */
export const MAIL_LOGO_SLOT = '<!--site-logo-->';
/** The content id the logo is attached under, which the HTML names. */
const LOGO_CID = 'site-logo@mail';

/** The site's logo as mail shows it (src/server/site/mail-logo.ts), with its text in each language. */
export interface MailLogo {
  png: Uint8Array;
  width: number;
  height: number;
  alt: Partial<Record<string, string>>;
}

/** A mail's HTML with the logo in its slot and the logo to attach, or without a slot when there is no logo. */
export function withLogo(
  html: string,
  language: string,
  logo: MailLogo | undefined,
): { html: string; attachments: { filename: string; content: Buffer; cid: string; contentType: string }[] } {
  if (!logo || !html.includes(MAIL_LOGO_SLOT)) return { html: html.replace(MAIL_LOGO_SLOT, ''), attachments: [] };
  const alt = logo.alt[language] ?? logo.alt.en ?? '';
  const image = `<img src="cid:${LOGO_CID}" alt="${escapeHtml(alt)}" width="${logo.width}" height="${logo.height}" style="display:block;margin:0 0 24px;border:0">`;
  return {
    html: html.replace(MAIL_LOGO_SLOT, image),
    attachments: [{ filename: 'logo.png', content: Buffer.from(logo.png), cid: LOGO_CID, contentType: 'image/png' }],
  };
}

/** The HTML frame of a mail: the site's look and logo, in the mail's language. */
export function mailHtml(language: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="${escapeHtml(language)}">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6fa;color:#1a1d23;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','Noto Sans Thai',Tahoma,sans-serif;line-height:1.6">
<div style="max-width:36rem;margin:0 auto;padding:24px;background:#ffffff;border-radius:12px">
${MAIL_LOGO_SLOT}
${body}
</div>
</body>
</html>
`;
}
