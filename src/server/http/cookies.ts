import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';

/** A cookie of the storage list (common/storage.ts), which the cookie policy renders. */
interface ListedCookie {
  name: string;
  lifetime: { days: number };
}

/** How long a listed cookie lives, in seconds: the lifetime the cookie policy states. */
export const lifetimeSeconds = (entry: ListedCookie): number => entry.lifetime.days * 24 * 60 * 60;

/**
 * Sets a listed cookie the way the site sets every cookie: for the whole site, over HTTPS only,
 * sent on top-level navigations from elsewhere (Lax), for the lifetime the policy states.
 * `httpOnly` for what the pages must not read (tokens), off for markers the pages read.
 */
export function setListedCookie(c: Context, entry: ListedCookie, value: string, { httpOnly }: { httpOnly: boolean }) {
  setCookie(c, entry.name, value, {
    path: '/',
    secure: true,
    sameSite: 'Lax',
    maxAge: lifetimeSeconds(entry),
    httpOnly,
  });
}
