import type { Context } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import type * as Oidc from 'openid-client';
import type { ErrorCode } from '#common/error-codes.ts';
import { NAME_MAX_LENGTH } from '#common/field-bounds.ts';
import {
  IDENTITY_API,
  IDENTITY_RESULT_PARAM,
  type IdentitiesAnswer,
  type LinkAnswer,
  PENDING_FRAGMENT,
  type ProvidersAnswer,
} from '#common/identity-api.ts';
import { LinkSchema, ReauthenticateSchema, UnlinkSchema } from '#common/identity-schemas.ts';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '#common/languages.ts';
import {
  REAUTHENTICATED,
  REAUTHENTICATION_API,
  REAUTHENTICATION_MINUTES,
  REAUTHENTICATION_TARGET_PARAM,
  REAUTHENTICATION_TARGETS,
  type ReauthenticateAnswer,
  type ReauthenticationAnswer,
  type ReauthenticationTarget,
} from '#common/reauthentication-api.ts';
import { RETENTION } from '#common/retention.ts';
import { pagePath } from '#common/routes.ts';
import { storageEntry } from '#common/storage.ts';
import { ApiError } from '#server/http/api-error.ts';
import type { AppEnv } from '#server/http/context.ts';
import { newRoutes } from '#server/http/context.ts';
import { setListedCookie } from '#server/http/cookies.ts';
import { jsonBody } from '#server/http/json-body.ts';
import type { OidcProviderSetting } from '#server/platform/oidc-env.ts';
import type { AccountDeps } from './account-deps.ts';
import { type Account, findAccountByEmail, findAccountById } from './account-queries.ts';
import {
  createOidcSignIn,
  createPendingSignInAfter,
  findIdentity,
  hasPassword,
  insertIdentity,
  insertProviderAccount,
  listIdentities,
  markIdentityUsed,
  type OidcSignIn,
  type TakenOidcSignIn,
  takeOidcSignIn,
  unlinkIdentity,
} from './identity-queries.ts';
import { hit } from './limits.ts';
import { oidcClients, openidClient } from './oidc-clients.ts';
import { countPasskeys } from './passkey-queries.ts';
import { signedInAnew } from './reauthentication.ts';
import { markReauthenticated, reauthenticatedUntil } from './reauthentication-queries.ts';
import { type Factor, hasSecondFactor, hasTotp } from './second-factor-queries.ts';
import { browserIsTrusted } from './second-factors.ts';
import { readSession, requireSession, startSession } from './sessions.ts';
import { hashSessionToken, newSessionToken } from './tokens.ts';

const FLOW_COOKIE = storageEntry('oidcSignIn');
/** How long a visitor may take at the provider before the sign-in must start again. */
const FLOW_SECONDS = 10 * 60;
/**
 * Authentication methods (RFC 8176) by which a provider says it asked for more than one factor:
 * such a sign-in counts as the second factor staff need. Anything else asks for the site's own.
 */
const MULTI_FACTOR_METHODS = new Set(['mfa', 'otp', 'hwk', 'sc', 'swk']);
/** What a provider answers in `error` when the visitor (or the provider's policy) said no. */
const REFUSALS = new Set(['access_denied', 'login_required', 'consent_required', 'interaction_required']);

/** A failed step of the dance, said to the visitor on the page they are sent back to. */
class SignInRefused extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode) {
    super(code);
    this.code = code;
  }
}

/** What the provider vouches for after a successful exchange. */
interface ProvidedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string;
  multiFactor: boolean;
  /** When the person signed in at the provider (the ID token's `auth_time`, in seconds), if it says. */
  authTime: number | null;
}

/** A sign-in that confirms a change of the session (by its token's hash) signed in already. */
interface Reauthentication {
  sessionHash: string;
  returnTo: ReauthenticationTarget;
}

/**
 * Sign-in with the company's OpenID Connect providers (authorization code flow with PKCE, state and
 * nonce, by the certified relying-party library openid-client), and the account's linked identities.
 * The browser comes and goes by redirects: every outcome, good or bad, is a redirect to a page that
 * says it, never an error page (docs/decisions/130).
 */
export function identityRoutes(deps: AccountDeps) {
  const { db, limiter } = deps;
  const clients = oidcClients(deps.settings.oidcProviders ?? []);
  const routes = newRoutes();
  const signedIn = requireSession(db, deps.settings.sessionIdleSeconds);
  const redirectUri = (provider: OidcProviderSetting) => `${deps.site.siteUrl}${IDENTITY_API.callback(provider.id)}`;
  const summary = (provider: OidcProviderSetting) => ({ id: provider.id, name: provider.name });

  /**
   * Sends the visitor back to sign-in (or, when linking or confirming a change, the account page)
   * with the outcome, and, after confirming, the part of the page to go back to.
   */
  const back = (
    c: Context<AppEnv>,
    language: Language,
    page: 'login' | 'account',
    result: string,
    returnTo: string | null = null,
  ) => {
    const target = REAUTHENTICATION_TARGETS.find((known) => known === returnTo);
    const to = target ? `&${REAUTHENTICATION_TARGET_PARAM}=${target}` : '';
    return c.redirect(`${pagePath(language, page)}?${IDENTITY_RESULT_PARAM}=${result}${to}`, 303);
  };

  /** Opens a sign-in at the provider for this browser: the address to send it to. */
  const begin = async <E extends AppEnv>(
    c: Context<E>,
    provider: OidcProviderSetting,
    language: Language,
    linkAccountId: string | null,
    reauthentication: Reauthentication | null = null,
  ) => {
    await limiter.enforce([hit('oidcPerClient', c.var.clientAddress)]);
    const configuration = await clients.configuration(provider).catch(() => {
      throw new SignInRefused('OIDC_PROVIDER_UNAVAILABLE');
    });
    const oidc = await openidClient();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const flow: OidcSignIn = {
      provider: provider.id,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier,
      language,
      linkAccountId,
      reauthenticateSession: reauthentication?.sessionHash ?? null,
      returnTo: reauthentication?.returnTo ?? null,
    };
    const token = newSessionToken();
    await createOidcSignIn(db, hashSessionToken(token), flow, FLOW_SECONDS);
    setListedCookie(c, FLOW_COOKIE, token, { httpOnly: true });
    return oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri(provider),
      scope: 'openid email profile',
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      ui_locales: language,
      // To confirm a change, the provider must ask the person to sign in now, whatever session it
      // keeps, and say when they did (OpenID Connect Core 3.1.2.1): the callback checks `auth_time`.
      ...(reauthentication ? { prompt: 'login', max_age: '0' } : {}),
    }).href;
  };

  /** Exchanges the provider's answer (the callback's query) for what it vouches for. */
  const exchange = async (
    c: Context<AppEnv>,
    provider: OidcProviderSetting,
    flow: OidcSignIn,
  ): Promise<ProvidedIdentity> => {
    const query = new URL(c.req.url).search;
    const params = new URLSearchParams(query);
    // Checked here as well as by the library, so that a mismatch gets a code of its own.
    if (params.get('state') !== flow.state) throw new SignInRefused('OIDC_STATE_MISMATCH');
    const error = params.get('error');
    if (error) throw new SignInRefused(REFUSALS.has(error) ? 'OIDC_DENIED' : 'OIDC_FAILED');
    const configuration = await clients.configuration(provider).catch(() => {
      throw new SignInRefused('OIDC_PROVIDER_UNAVAILABLE');
    });
    const oidc = await openidClient();
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, new URL(redirectUri(provider) + query), {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new SignInRefused('OIDC_FAILED');
      // Many providers give the address and the name only from the userinfo endpoint.
      const info = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      const email =
        typeof info.email === 'string' ? info.email : typeof claims.email === 'string' ? claims.email : null;
      const verified = info.email_verified ?? claims.email_verified;
      const amr = Array.isArray(claims.amr) ? claims.amr : [];
      return {
        issuer: configuration.serverMetadata().issuer,
        subject: claims.sub,
        email: email?.trim().toLowerCase() || null,
        // Some providers send the flag as a string.
        emailVerified: verified === true || verified === 'true',
        name: nameFrom(info, email ?? ''),
        multiFactor: amr.some((method) => typeof method === 'string' && MULTI_FACTOR_METHODS.has(method)),
        authTime: typeof claims.auth_time === 'number' ? claims.auth_time : null,
      };
    } catch (caught) {
      if (caught instanceof SignInRefused) throw caught;
      throw new SignInRefused(providerWasDown(oidc, caught) ? 'OIDC_PROVIDER_UNAVAILABLE' : 'OIDC_FAILED');
    }
  };

  /** Opens a session for the account, or asks for the site's second factor on the sign-in page. */
  const signIn = async (c: Context<AppEnv>, account: Account, language: Language, multiFactor: boolean) => {
    const factors: Factor[] = multiFactor ? ['oidc', 'oidc-mfa'] : ['oidc'];
    if (!multiFactor && (await hasSecondFactor(db, account.id))) {
      if (await browserIsTrusted(c, db, account.id)) {
        factors.push('trusted-browser');
      } else {
        // The token is for the sign-in page only: in the fragment, which the browser never sends.
        const pending = newSessionToken();
        await createPendingSignInAfter(
          db,
          hashSessionToken(pending),
          account.id,
          RETENTION.pendingSignInMinutes * 60,
          'oidc',
        );
        // With what the second step may be given, as the password's answer says it (LoginAnswer).
        const offers = new URLSearchParams({
          [PENDING_FRAGMENT]: pending,
          passkey: (await countPasskeys(db, account.id)) > 0 ? '1' : '0',
          totp: (await hasTotp(db, account.id)) ? '1' : '0',
        });
        return c.redirect(`${pagePath(language, 'login')}#${offers}`, 303);
      }
    }
    await startSession(c, db, account.id, factors);
    return c.redirect(pagePath(language, 'account'), 303);
  };

  /** The identity signs in to its account, or makes one when its address is new and verified. */
  const signInWith = async (c: Context<AppEnv>, identity: ProvidedIdentity, language: Language) => {
    const known = await findIdentity(db, identity.issuer, identity.subject);
    if (known) {
      const account = await findAccountById(db, known.accountId);
      if (!account) throw new SignInRefused('OIDC_FAILED');
      await markIdentityUsed(db, known.id, identity.email);
      return signIn(c, account, language, identity.multiFactor);
    }
    const { email } = identity;
    if (!email || !identity.emailVerified) throw new SignInRefused('OIDC_EMAIL_UNVERIFIED');
    // No silent takeover: whoever controls an address at a provider does not get the account that
    // has it here. Its owner signs in and links the identity from the account page.
    if (await findAccountByEmail(db, email)) throw new SignInRefused('OIDC_ACCOUNT_EXISTS');
    const accountId = await db.transaction(async (tx) => {
      const id = await insertProviderAccount(tx, { name: identity.name, email, language });
      if (!id) throw new SignInRefused('OIDC_ACCOUNT_EXISTS');
      if (!(await insertIdentity(tx, { accountId: id, ...identity }))) throw new SignInRefused('OIDC_IDENTITY_TAKEN');
      return id;
    });
    const account = await findAccountById(db, accountId);
    if (!account) throw new SignInRefused('OIDC_FAILED');
    return signIn(c, account, language, identity.multiFactor);
  };

  /**
   * The session's owner signed in again at the provider: recorded on the session when it is the
   * identity linked to its account and the provider asked for the sign-in after the request went out.
   */
  const reauthenticate = async (
    c: Context<AppEnv>,
    identity: ProvidedIdentity,
    flow: TakenOidcSignIn,
    language: Language,
  ) => {
    // The browser must still hold the session that asked: the flow's cookie could outlive it.
    const session = await readSession(c, db, deps.settings.sessionIdleSeconds);
    if (session.kind !== 'active' || session.tokenHash !== flow.reauthenticateSession) {
      throw new SignInRefused('OIDC_STATE_MISMATCH');
    }
    const known = await findIdentity(db, identity.issuer, identity.subject);
    if (!known || known.accountId !== session.accountId) throw new SignInRefused('OIDC_WRONG_IDENTITY');
    if (!signedInAnew(identity.authTime, flow.createdAt, new Date())) {
      throw new SignInRefused('OIDC_NOT_REAUTHENTICATED');
    }
    await markIdentityUsed(db, known.id, identity.email);
    await markReauthenticated(db, session.tokenHash);
    return back(c, language, 'account', REAUTHENTICATED, flow.returnTo);
  };

  routes.get(IDENTITY_API.providers, (c) => c.json({ providers: clients.list.map(summary) } satisfies ProvidersAnswer));

  // A plain link from the sign-in page: no script needed.
  routes.get(IDENTITY_API.start(':provider'), async (c) => {
    const asked = c.req.query('lang');
    const language = isLanguage(asked) ? asked : DEFAULT_LANGUAGE;
    const provider = clients.find(c.req.param('provider') ?? '');
    if (!provider) return back(c, language, 'login', 'OIDC_PROVIDER_UNAVAILABLE');
    try {
      return c.redirect(await begin(c, provider, language, null), 302);
    } catch (caught) {
      return back(c, language, 'login', refusal(caught));
    }
  });

  // Linking starts from the account page with a call (the Origin check applies), never from a
  // link another site could send a signed-in visitor along.
  routes.post(IDENTITY_API.link, signedIn, jsonBody(LinkSchema), async (c) => {
    const { provider: id, language } = c.req.valid('json');
    const provider = clients.find(id);
    if (!provider) throw new ApiError(404, 'NOT_FOUND');
    try {
      return c.json({ url: await begin(c, provider, language, c.get('session').accountId) } satisfies LinkAnswer);
    } catch (caught) {
      if (caught instanceof SignInRefused) throw new ApiError(503, caught.code);
      throw caught;
    }
  });

  routes.get(IDENTITY_API.callback(':provider'), async (c) => {
    const token = getCookie(c, FLOW_COOKIE.name);
    deleteCookie(c, FLOW_COOKIE.name, { path: '/', secure: true, httpOnly: true, sameSite: 'Lax' });
    const flow = token ? await takeOidcSignIn(db, hashSessionToken(token)) : null;
    // No sign-in started in this browser (or it lapsed): nothing to check the answer against.
    if (!flow || flow.provider !== c.req.param('provider')) {
      return back(c, DEFAULT_LANGUAGE, 'login', 'OIDC_STATE_MISMATCH');
    }
    const language = isLanguage(flow.language) ? flow.language : DEFAULT_LANGUAGE;
    const page = flow.linkAccountId || flow.reauthenticateSession ? 'account' : 'login';
    const provider = clients.find(flow.provider);
    if (!provider) return back(c, language, page, 'OIDC_PROVIDER_UNAVAILABLE', flow.returnTo);
    try {
      const identity = await exchange(c, provider, flow);
      if (flow.reauthenticateSession) return await reauthenticate(c, identity, flow, language);
      if (!flow.linkAccountId) return await signInWith(c, identity, language);
      const known = await findIdentity(db, identity.issuer, identity.subject);
      if (known?.accountId === flow.linkAccountId) return back(c, language, page, 'linked');
      if (known) return back(c, language, page, 'OIDC_IDENTITY_TAKEN');
      const linked = await insertIdentity(db, { accountId: flow.linkAccountId, ...identity });
      return back(c, language, page, linked ? 'linked' : 'OIDC_IDENTITY_TAKEN');
    } catch (caught) {
      return back(c, language, page, refusal(caught), flow.returnTo);
    }
  });

  // An account without a password confirms a sensitive change by signing in again at a provider it
  // is linked at (docs/decisions/220); a call from the account page, as linking is.
  routes.post(REAUTHENTICATION_API.start, signedIn, jsonBody(ReauthenticateSchema), async (c) => {
    const session = c.get('session');
    const { provider: id, language, returnTo } = c.req.valid('json');
    const provider = clients.find(id);
    const identities = await listIdentities(db, session.accountId);
    if (!provider || !identities.some((identity) => identity.issuer === provider.issuer)) {
      throw new ApiError(404, 'NOT_FOUND');
    }
    try {
      const url = await begin(c, provider, language, null, { sessionHash: session.tokenHash, returnTo });
      return c.json({ url } satisfies ReauthenticateAnswer);
    } catch (caught) {
      if (caught instanceof SignInRefused) throw new ApiError(503, caught.code);
      throw caught;
    }
  });

  routes.get(REAUTHENTICATION_API.state, signedIn, async (c) => {
    const { accountId, tokenHash } = c.get('session');
    const providers = (await listIdentities(db, accountId)).flatMap((identity) => {
      const provider = clients.byIssuer(identity.issuer);
      return provider ? [summary(provider)] : [];
    });
    const until = await reauthenticatedUntil(db, tokenHash, REAUTHENTICATION_MINUTES);
    return c.json({
      passwordless: !(await hasPassword(db, accountId)),
      providers,
      until: until?.toISOString() ?? null,
    } satisfies ReauthenticationAnswer);
  });

  routes.get(IDENTITY_API.identities, signedIn, async (c) => {
    const { accountId } = c.get('session');
    const identities = await listIdentities(db, accountId);
    const linkedIssuers = new Set(identities.map((identity) => identity.issuer));
    return c.json({
      identities: identities.map((identity) => {
        const provider = clients.byIssuer(identity.issuer);
        return {
          id: identity.id,
          provider: provider && summary(provider),
          issuer: identity.issuer,
          email: identity.email,
          linkedAt: identity.createdAt.toISOString(),
        };
      }),
      linkable: clients.list.filter((provider) => !linkedIssuers.has(provider.issuer)).map(summary),
      hasPassword: await hasPassword(db, accountId),
    } satisfies IdentitiesAnswer);
  });

  routes.post(IDENTITY_API.unlink, signedIn, jsonBody(UnlinkSchema), async (c) => {
    const result = await unlinkIdentity(db, c.get('session').accountId, c.req.valid('json').id);
    if (result === 'gone') throw new ApiError(404, 'NOT_FOUND');
    if (result === 'last') throw new ApiError(409, 'LAST_SIGN_IN_METHOD');
    return c.json({});
  });

  return routes;
}

/** The code a failed step is said with: its own, a limit's, or, for anything unforeseen, a failed sign-in. */
function refusal(caught: unknown): ErrorCode {
  if (caught instanceof SignInRefused) return caught.code;
  if (caught instanceof ApiError) return caught.code;
  console.error('Sign-in with a provider failed:', caught);
  return 'OIDC_FAILED';
}

/**
 * Whether a failed exchange means the provider is down (no answer, a timeout, a 5xx answer) rather
 * than that it refused: a code made up, used twice or for another client, or tokens that fail a check.
 */
function providerWasDown(oidc: typeof Oidc, caught: unknown): boolean {
  if (caught instanceof oidc.AuthorizationResponseError) return false;
  if (caught instanceof oidc.ResponseBodyError) return caught.status >= 500;
  const { cause } = caught as { cause?: unknown };
  if (cause instanceof Response) return cause.status >= 500;
  const unreachable = (error: unknown) =>
    error instanceof TypeError || (error instanceof Error && ['AbortError', 'TimeoutError'].includes(error.name));
  return unreachable(caught) || unreachable(cause);
}

/** The name the account gets: the provider's, else its given and family names, else the address's local part. */
function nameFrom(info: Record<string, unknown>, email: string): string {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const given = [text(info.given_name), text(info.family_name)].filter(Boolean).join(' ');
  const name = text(info.name) || given || text(info.preferred_username) || email.split('@')[0] || email;
  return [...name].slice(0, NAME_MAX_LENGTH).join('') || 'User';
}
