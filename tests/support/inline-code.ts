// What a page's own security policy makes of its inline code (decision 250), read from outside:
// the HTML and the Content-Security-Policy header as a browser gets them.
import { createHash } from 'node:crypto';

export const hashOf = (code: string) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;

const directive = (policy: string, name: string) =>
  policy.split(';').find((part) => part.trim().startsWith(`${name} `) || part.trim() === name) ?? '';

/** The inline scripts that run (not data blocks) and the inline styles of a page. */
export function inlineCode(html: string): { scripts: string[]; styles: string[] } {
  const scripts = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes]) => !/type="application\/(?:ld\+)?json"/.test(attributes ?? ''))
    .map(([, , body]) => body ?? '');
  const styles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map(([, body]) => body ?? '');
  return { scripts, styles };
}

/** The inline code of a page that its policy refuses, each as its first characters. */
export function refusedInline(html: string, policy: string): string[] {
  const { scripts, styles } = inlineCode(html);
  return [
    ...scripts
      .filter((body) => !directive(policy, 'script-src').includes(hashOf(body)))
      .map((body) => `script ${body.slice(0, 40)}`),
    ...styles
      .filter((body) => !directive(policy, 'style-src').includes(hashOf(body)))
      .map((body) => `style ${body.slice(0, 40)}`),
  ];
}

/** The hashes a page's policy allows that none of its inline code has: bytes on every answer for nothing. */
export function unusedHashes(html: string, policy: string): string[] {
  const { scripts, styles } = inlineCode(html);
  const carried = new Set([...scripts, ...styles].map(hashOf));
  const named = [directive(policy, 'script-src'), directive(policy, 'style-src')].flatMap(
    (part) => part.match(/'sha256-[^']+'/g) ?? [],
  );
  return named.filter((hash) => !carried.has(hash));
}
