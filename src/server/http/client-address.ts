import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './context.ts';

/**
 * The address a request comes from. With `trustedProxies` = 0 it is the socket's peer; behind N
 * trusted proxies it is the entry N places from the right of X-Forwarded-For (the ones further left
 * were written by the client and prove nothing).
 */
export function clientAddress(c: Context, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const forwarded = (c.req.header('X-Forwarded-For') ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    const address = forwarded[forwarded.length - trustedProxies];
    if (address) return address;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in tests has no socket.
    return 'unknown';
  }
}

/** Puts the requester's address on the context, as `c.var.clientAddress`. */
export const withClientAddress = (trustedProxies: number) =>
  createMiddleware<AppEnv>(async (c, next) => {
    c.set('clientAddress', clientAddress(c, trustedProxies));
    await next();
  });
