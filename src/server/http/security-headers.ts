import type { MiddlewareHandler } from 'hono';

export interface InlineHashes {
  scripts: string[];
  styles: string[];
}

/**
 * Headers on every answer, pages and API alike. The only inline code the pages carry is what the
 * build hashed, so the policy allows exactly that and the site's own files, and nothing from
 * elsewhere. No opener policy here: see `OPENER_ISOLATION`.
 */
export function securityHeaders(inline: InlineHashes): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${inline.scripts.join(' ')}`,
    `style-src 'self' ${inline.styles.join(' ')}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
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

/** The same headers on every answer of the Hono app. */
export function securityHeadersMiddleware(headers: Record<string, string>): MiddlewareHandler {
  return async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}
