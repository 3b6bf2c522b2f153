import { isIP } from 'node:net';

/** Who the passkeys belong to, as WebAuthn names it: the site's host, and the pages' origins that may ask. */
export interface RelyingParty {
  /** The host name a passkey is bound to: the browser checks it against the page's address. */
  id: string;
  /** The origins whose pages may use the passkeys (one, except on this machine). */
  origins: string[];
  name: string;
}

/**
 * The relying party of `siteUrl`, the site's public address: behind nginx or another proxy the
 * request's own host is an upstream's, so it cannot be trusted for this. A browser refuses an IP
 * address as the id, and a server started on a loopback address (siteUrl `http://127.0.0.1:3000`)
 * is opened at `http://localhost:3000`: there the id is `localhost`, and both origins are accepted.
 */
export function relyingParty(siteUrl: string, siteName: string): RelyingParty {
  const url = new URL(siteUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || (isIP(host) !== 0 && /^(127\.|::1$)/.test(host));
  if (!loopback) return { id: host, origins: [url.origin], name: siteName };
  const local = new URL(url.origin);
  local.hostname = 'localhost';
  return { id: 'localhost', origins: [...new Set([url.origin, local.origin])], name: siteName };
}
