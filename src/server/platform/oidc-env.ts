import { z } from '#common/zod-english.ts';

/** One OpenID Connect provider visitors may sign in with, as the company configured it. */
export interface OidcProviderSetting {
  /** The lower-case name in OIDC_PROVIDERS: part of the sign-in and callback addresses. */
  id: string;
  /** What the sign-in button says after "Sign in with". */
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

const ID = /^[a-z][a-z0-9]{0,31}$/;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https://, or http:// on this machine only (a provider run beside the site, as the tests do). */
const issuerUrl = z.url({ message: 'must be a URL' }).check(
  z.refine(
    (value) => {
      // Runs after a failed URL check too: an address that does not parse was reported there.
      const url = URL.parse(value);
      return !url || url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
    },
    { message: 'must be an https:// URL (http:// only on localhost)' },
  ),
);

const ProviderSchema = z.object({
  ISSUER: issuerUrl,
  CLIENT_ID: z.string().check(z.minLength(1, 'must be set'), z.maxLength(500)),
  CLIENT_SECRET: z.string().check(z.minLength(1, 'must be set'), z.maxLength(500)),
  NAME: z.string().check(z.trim(), z.minLength(1, 'must be set'), z.maxLength(60)),
});

/**
 * The providers named in OIDC_PROVIDERS (`company,google`), each described by
 * OIDC_<ID>_ISSUER, _CLIENT_ID, _CLIENT_SECRET and _NAME. Returns the problems instead, each naming
 * its variable, so that start-up stops with all of them at once.
 */
export function readOidcProviders(source: Record<string, string | undefined>): {
  providers: OidcProviderSetting[];
  problems: string[];
} {
  const list = source.OIDC_PROVIDERS?.trim();
  if (!list) return { providers: [], problems: [] };
  const providers: OidcProviderSetting[] = [];
  const problems: string[] = [];
  const ids = list.split(',').map((id) => id.trim());
  for (const [index, id] of ids.entries()) {
    if (!ID.test(id)) {
      problems.push(`OIDC_PROVIDERS: "${id}" must be a lower-case name of letters and digits (up to 32)`);
      continue;
    }
    if (ids.indexOf(id) !== index) {
      problems.push(`OIDC_PROVIDERS: "${id}" is named twice`);
      continue;
    }
    const prefix = `OIDC_${id.toUpperCase()}_`;
    const result = ProviderSchema.safeParse({
      ISSUER: source[`${prefix}ISSUER`],
      CLIENT_ID: source[`${prefix}CLIENT_ID`],
      CLIENT_SECRET: source[`${prefix}CLIENT_SECRET`],
      NAME: source[`${prefix}NAME`],
    });
    if (!result.success) {
      for (const issue of result.error.issues) {
        const missing = issue.code === 'invalid_type';
        problems.push(`${prefix}${issue.path.join('.')}: ${missing ? 'must be set' : issue.message}`);
      }
      continue;
    }
    const { ISSUER, CLIENT_ID, CLIENT_SECRET, NAME } = result.data;
    providers.push({ id, name: NAME, issuer: ISSUER, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  }
  return { providers, problems };
}
