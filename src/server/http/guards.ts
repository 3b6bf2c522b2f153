import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ErrorCode } from '#common/error-codes.ts';
import { ApiError } from './api-error.ts';
import { maxBody } from './json-body.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A route that a feature takes out of the default checks, with the reason in its feature. `path` is
 * exact, or a prefix when it ends in `/*`. `origin: false` lifts the Origin check (a beacon that
 * carries no session); `contentTypes` replaces "JSON only" (a plain HTML form posts
 * application/x-www-form-urlencoded); `maxBodyBytes` raises the body limit (batches of analytics).
 */
export interface GuardExemption {
  path: string;
  origin?: false;
  contentTypes?: readonly string[];
  maxBodyBytes?: number;
  /** The code a body over the limit is answered with; INVALID_REQUEST by default. */
  tooLarge?: ErrorCode;
}

const matches = (pattern: string, path: string) =>
  pattern.endsWith('/*') ? path.startsWith(pattern.slice(0, -1)) || path === pattern.slice(0, -2) : path === pattern;

function sameOrigin(origin: string, requestUrl: string, siteUrl: string): boolean {
  try {
    const from = new URL(origin).origin;
    return from === new URL(requestUrl).origin || from === new URL(siteUrl).origin;
  } catch {
    return false;
  }
}

/**
 * For reads that show what only staff may see. The session cookie is SameSite=Lax, so another
 * site's script gets no cookie along anyway; this refuses such a request outright, by the marks
 * browsers put on it (Sec-Fetch-Site, and Origin on a cross-origin fetch). A request with neither
 * mark does not come from another site's page.
 */
export function refuseCrossSite(c: Context, siteUrl: string): void {
  const fetchSite = c.req.header('Sec-Fetch-Site');
  if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') throw new ApiError(403, 'INVALID_REQUEST');
  const origin = c.req.header('Origin');
  if (origin && !sameOrigin(origin, c.req.url, siteUrl)) throw new ApiError(403, 'INVALID_REQUEST');
}

const mediaType = (header: string | undefined) => (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * The checks every API request gets unless its feature declares an exemption:
 * - a state-changing request must come from this site's own pages: its Origin (scheme, host and
 *   port) is the request's or the configured site address, so another site's page cannot act with
 *   the visitor's cookie;
 * - its body must be JSON, which a plain form on another site cannot send without the browser
 *   asking first, and no larger than `maxBodyBytes`;
 * - the answer is never stored by a browser or a proxy (it belongs to one visitor), unless the
 *   route said otherwise.
 */
export function requestGuards(siteUrl: string, exemptions: readonly GuardExemption[], maxBodyBytes: number) {
  const defaultLimit = maxBody(maxBodyBytes);
  const limits = new Map<GuardExemption, MiddlewareHandler>(
    exemptions.map((entry) => [entry, maxBody(entry.maxBodyBytes ?? maxBodyBytes, entry.tooLarge)]),
  );
  return createMiddleware(async (c, next) => {
    const exemption = exemptions.find((entry) => matches(entry.path, c.req.path));
    if (!SAFE_METHODS.has(c.req.method)) {
      if (exemption?.origin !== false) {
        const origin = c.req.header('Origin');
        if (!origin || !sameOrigin(origin, c.req.url, siteUrl)) throw new ApiError(403, 'INVALID_REQUEST');
      }
      const allowed = exemption?.contentTypes ?? (exemption?.origin === false ? null : ['application/json']);
      if (allowed && !allowed.includes(mediaType(c.req.header('Content-Type')))) {
        throw new ApiError(415, 'INVALID_REQUEST');
      }
    }
    await ((exemption && limits.get(exemption)) ?? defaultLimit)(c, next);
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  });
}
