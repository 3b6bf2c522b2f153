import { createMiddleware } from 'hono/factory';
import { fail } from './api-error.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function sameHost(origin: string, requestUrl: string, siteUrl: string): boolean {
  try {
    const from = new URL(origin);
    return from.host === new URL(requestUrl).host || from.origin === new URL(siteUrl).origin;
  } catch {
    return false;
  }
}

/**
 * For every state-changing request: the Origin must be this site (another site's page cannot act
 * with the visitor's cookie, whatever it sends), and the body must be JSON, which a plain HTML form
 * elsewhere cannot send without the browser asking first.
 */
export function sameOriginJson(siteUrl: string) {
  return createMiddleware(async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header('Origin');
    if (!origin || !sameHost(origin, c.req.url, siteUrl)) return fail(c, 403, 'INVALID_REQUEST');
    const type = (c.req.header('Content-Type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return fail(c, 415, 'INVALID_REQUEST');
    return next();
  });
}

/** Answers that must never be kept by a browser or a proxy: they belong to one visitor. */
export const noStore = createMiddleware(async (c, next) => {
  await next();
  c.header('Cache-Control', 'no-store');
});
