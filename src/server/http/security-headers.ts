import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

/** Hashes (`'sha256-…'`) of inline scripts and styles, as a policy names them. */
export interface InlineHashes {
  scripts: string[];
  styles: string[];
}

const NO_INLINE: InlineHashes = { scripts: [], styles: [] };
const hashOf = (code: string) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;
/** An inline script that runs: no `src`, and not a data block (JSON, JSON-LD), which the browser never runs. */
const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)(?![^>]*\btype="application\/(?:ld\+)?json")[^>]*>([\s\S]*?)<\/script>/g;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/g;

/**
 * The inline code an HTML document carries that `allowed` names (decision 250): what its own
 * policy lets run. Code the renderer did not make (a script slipped in by a text, say) is left out
 * of it, so it stays refused.
 */
export function inlineCodeOf(html: string, allowed: InlineHashes): InlineHashes {
  const found = (pattern: RegExp, names: string[]) => [
    ...new Set(
      [...html.matchAll(pattern)].map(([, code]) => hashOf(code ?? '')).filter((hash) => names.includes(hash)),
    ),
  ];
  return { scripts: found(INLINE_SCRIPT, allowed.scripts), styles: found(INLINE_STYLE, allowed.styles) };
}

/**
 * The Content-Security-Policy of an answer: the site's own files, and of inline code only what
 * `inline` names. A page gets its own (decision 250); every other answer none inline.
 */
export function contentSecurityPolicy(inline: InlineHashes = NO_INLINE): string {
  const list = (hashes: string[]) => (hashes.length > 0 ? ` ${hashes.join(' ')}` : '');
  return [
    "default-src 'self'",
    `script-src 'self'${list(inline.scripts)}`,
    `style-src 'self'${list(inline.styles)}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Headers on every answer, pages and API alike. No page's inline code is allowed here: a page
 * answers with its own policy, which names what it carries (decision 250). No opener policy here:
 * see `OPENER_ISOLATION`.
 */
export function securityHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(),
    'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()',
  };
}

/**
 * The policy of a built file that is not a page (a script, a stylesheet, texts, an image). A policy
 * acts only on the document it arrives with, so these need none of the pages' hashes: the full one
 * repeated on each of a page's twenty scripts cost it 7.6 KB on the wire (decision 098). What a
 * file opened on its own may do stays nothing.
 */
export const FILE_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * For the console's page only: a window that opened it keeps no handle on it. On the public pages it
 * would make every arrival start a fresh renderer mid-navigation, at the cost of their first paint
 * (decision 057).
 */
export const OPENER_ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin' } as const;

/** The same headers on every answer of the Hono app; a page it answers with keeps its own policy. */
export function securityHeadersMiddleware(headers: Record<string, string>): MiddlewareHandler {
  return async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(headers)) {
      if (name !== 'Content-Security-Policy' || !c.res.headers.has(name)) c.res.headers.set(name, value);
    }
  };
}
