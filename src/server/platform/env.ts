import path from 'node:path';
import type { Language } from '#common/languages.ts';
import { DEFAULT_LANGUAGE, LANGUAGES } from '#common/languages.ts';
import { RETENTION } from '#common/retention.ts';
import { z } from '#common/zod-english.ts';
import { LOG_LEVELS } from './log.ts';
import { type OidcProviderSetting, readOidcProviders } from './oidc-env.ts';

/** The features' settings, from the environment (`settingsFrom` below); tests change some. */
export interface Settings {
  /** A session unused for this long has lapsed (SESSION_IDLE_SECONDS). */
  sessionIdleSeconds: number;
  /** Fingerprint records per client address and minute (FINGERPRINT_RATE_LIMIT). */
  fingerprintRateLimit: number;
  /** POSTHOG_HOST and POSTHOG_KEY; without them events go to the embedded store. */
  posthog?: { host: string; key: string };
  /** OTEL_EXPORTER_OTLP_ENDPOINT; without it the browser's spans are accepted and dropped. */
  collector?: string;
  /** How long PostHog or the collector may take (UPSTREAM_TIMEOUT_MS). */
  upstreamTimeoutMs: number;
  /** No SMTP_URL: mail is kept in the outbox table and the log, not sent; the console and the staff command say so. */
  mailKept: boolean;
  /** How long /api/health waits for the database before it answers 503. */
  healthTimeoutMs: number;
  /** Where the contact form's messages are announced (CONTACT_EMAIL); hello@ the brand's domain by default. */
  contactEmail?: string;
  /** The language of that announcement (CONTACT_LANGUAGE). */
  contactLanguage: Language;
  /** Contact messages per client address and hour (CONTACT_RATE_LIMIT). */
  contactRateLimit: number;
  /** Argon2id parameters; the accounts' default unless a test passes weaker ones, to run fast. */
  passwordHashing?: { memoryCost: number; timeCost: number; parallelism: number };
  /** How many hashes run at once and may wait (see accounts/passwords.ts); half the processors by default. */
  hashingLimits?: { concurrency: number; queue: number; refusalHoldMs: number };
  /** How long an operator's chat reply may stay unread before it is mailed (CHAT_REPLY_MAIL_DELAY_SECONDS). */
  chatReplyMailDelaySeconds: number;
  /** New chat conversations a client address may start in 12 hours (CHAT_CONVERSATIONS_PER_CLIENT). */
  chatConversationsPerClient: number;
  /** Chat event streams: the heartbeat and how long one stays open before the browser reconnects; tests shorten them. */
  chatStreams?: { heartbeatMs: number; lifetimeMs: number };
  /** The bearer token /metrics asks of a request that is not from this machine without a proxy (METRICS_TOKEN). */
  metricsToken?: string;
  /** OpenID Connect providers visitors may sign in with (OIDC_PROVIDERS, see oidc-env.ts); none by default. */
  oidcProviders?: readonly OidcProviderSetting[];
}

const DAY_SECONDS = 24 * 60 * 60;

/** What the features run with when the environment says nothing. */
export const DEFAULT_SETTINGS: Settings = {
  // A session unused for a week lapses.
  sessionIdleSeconds: 7 * DAY_SECONDS,
  // A browser sends its record once, then keeps the cookie: room for an office behind one address.
  fingerprintRateLimit: 60,
  upstreamTimeoutMs: 5_000,
  // Without SMTP_URL, mail stays on the server.
  mailKept: true,
  // Short: a health check that hangs is as bad as none.
  healthTimeoutMs: 2_000,
  contactLanguage: DEFAULT_LANGUAGE,
  // A person writes once or twice; an office behind one address may hold a few such people.
  contactRateLimit: 10,
  // Between Chatwoot's 2 minutes and Papercups' 20: long enough for a live answer to be seen live.
  chatReplyMailDelaySeconds: 10 * 60,
  // Chatwoot's figure for new widget conversations per address.
  chatConversationsPerClient: 6,
};

const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' });

/** An integer from `min` to `max` read from its text, `fallback` when unset. */
const integer = (min: number, max: number, fallback: number) =>
  z._default(z.coerce.number().check(z.int(), z.minimum(min), z.maximum(max)), fallback);
/** A text of at least one character, `fallback` when unset. */
const text = (fallback: string) => z._default(z.string().check(z.minLength(1)), fallback);

const EnvSchema = z
  .object({
    PORT: integer(1, 65535, 3000),
    HOST: text('0.0.0.0'),
    DATA_DIR: text('data'),
    /** The build to serve; `npm run build` writes it. */
    SITE_DIR: text('dist'),
    /** PostgreSQL, for several instances; without it the embedded PGlite keeps data in DATA_DIR. */
    DATABASE_URL: z.optional(z.string().check(z.regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'))),
    /**
     * How many proxies in front of the server append to X-Forwarded-For. 0 (the default) means the
     * header is ignored, so a client cannot pick the address its rate limits are counted under.
     */
    TRUST_PROXY: integer(0, 10, 0),
    /** Signs visitor identifiers; set it when several instances must accept each other's. */
    SERVER_SECRET: z.optional(z.string().check(z.minLength(32, 'must be at least 32 characters'))),
    /**
     * The PostHog host /api/posthog forwards to (for example https://eu.i.posthog.com), with the
     * project's API key. Without them, events are kept in the database (see `npm run analytics`).
     */
    POSTHOG_HOST: z.optional(httpUrl),
    POSTHOG_KEY: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    /** An OTLP/HTTP collector (traces go to its /v1/traces); without it, traces are dropped. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.optional(httpUrl),
    /**
     * Fingerprint records a client address may send per minute. A browser sends one and then keeps
     * its cookie; raise it when many visitors share one address (or for browser tests).
     */
    FINGERPRINT_RATE_LIMIT: integer(1, 1_000_000, DEFAULT_SETTINGS.fingerprintRateLimit),
    /** How long the server waits for PostHog or the collector before giving up. */
    UPSTREAM_TIMEOUT_MS: integer(100, 60_000, DEFAULT_SETTINGS.upstreamTimeoutMs),
    /**
     * The SMTP server that delivers mail (smtp://user:password@host:587, or smtps:// for TLS from the
     * start). Without it, mail is kept in the mail_outbox table and printed to the log.
     */
    SMTP_URL: z.optional(z.string().check(z.regex(/^smtps?:\/\/[^/\s]+/, 'must be an smtp:// or smtps:// URL'))),
    /** Sender of that mail, as `address` or `Name <address>`; by default the brand at no-reply@ its domain. */
    MAIL_FROM: z.optional(z.string().check(z.minLength(3), z.maxLength(320))),
    /** A session unused for this many seconds ends; 7 days by default, 30 days (the session's absolute end) at most. */
    SESSION_IDLE_SECONDS: integer(1, RETENTION.sessionDays * DAY_SECONDS, DEFAULT_SETTINGS.sessionIdleSeconds),
    /** Where contact messages are announced; by default hello@ the brand's domain, the address the contact page shows. */
    CONTACT_EMAIL: z.optional(z.email({ message: 'must be an email address' }).check(z.maxLength(254))),
    /** The language of those announcements. */
    CONTACT_LANGUAGE: z._default(z.enum(LANGUAGES), DEFAULT_SETTINGS.contactLanguage),
    /** Contact messages one client address may send per hour; raise it for browser tests. */
    CONTACT_RATE_LIMIT: integer(1, 1_000_000, DEFAULT_SETTINGS.contactRateLimit),
    /** Seconds an operator's chat reply may stay unread before it is mailed to the visitor (10 minutes). */
    CHAT_REPLY_MAIL_DELAY_SECONDS: integer(1, DAY_SECONDS, DEFAULT_SETTINGS.chatReplyMailDelaySeconds),
    /**
     * New chat conversations a client address may start in 12 hours. Raise it when many visitors
     * share one address (or for browser tests).
     */
    CHAT_CONVERSATIONS_PER_CLIENT: integer(1, 1_000_000, DEFAULT_SETTINGS.chatConversationsPerClient),
    /** How much the server logs: `info` writes events (start, failures, jobs given up), `debug` adds every API request. */
    LOG_LEVEL: z._default(z.enum(LOG_LEVELS), 'info'),
    /**
     * The bearer token a scraper sends for /metrics. Without it, /metrics answers only requests from
     * this machine that came through no proxy.
     */
    METRICS_TOKEN: z.optional(z.string().check(z.minLength(16, 'must be at least 16 characters'), z.maxLength(200))),
  })
  .check(
    z.refine((env) => !env.POSTHOG_HOST === !env.POSTHOG_KEY, {
      message: 'POSTHOG_HOST and POSTHOG_KEY go together: set both or neither',
      path: ['POSTHOG_KEY'],
    }),
  );

export type Env = z.infer<typeof EnvSchema> & {
  DATA_DIR: string;
  SITE_DIR: string;
  oidcProviders: OidcProviderSetting[];
};

/** Reads the environment once; a bad value stops start-up with a message naming the variable. */
export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = EnvSchema.safeParse(source);
  const oidc = readOidcProviders(source);
  if (!result.success || oidc.problems.length > 0) {
    const problems = (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment: ${[...problems, ...oidc.problems].join('; ')}`);
  }
  return {
    ...result.data,
    DATA_DIR: path.resolve(result.data.DATA_DIR),
    SITE_DIR: path.resolve(result.data.SITE_DIR),
    oidcProviders: oidc.providers,
  };
}

/** The features' settings from a read environment. */
export function settingsFrom(env: Env): Settings {
  return {
    sessionIdleSeconds: env.SESSION_IDLE_SECONDS,
    fingerprintRateLimit: env.FINGERPRINT_RATE_LIMIT,
    posthog: env.POSTHOG_HOST && env.POSTHOG_KEY ? { host: env.POSTHOG_HOST, key: env.POSTHOG_KEY } : undefined,
    collector: env.OTEL_EXPORTER_OTLP_ENDPOINT,
    upstreamTimeoutMs: env.UPSTREAM_TIMEOUT_MS,
    mailKept: !env.SMTP_URL,
    healthTimeoutMs: DEFAULT_SETTINGS.healthTimeoutMs,
    contactEmail: env.CONTACT_EMAIL,
    contactLanguage: env.CONTACT_LANGUAGE,
    contactRateLimit: env.CONTACT_RATE_LIMIT,
    chatReplyMailDelaySeconds: env.CHAT_REPLY_MAIL_DELAY_SECONDS,
    chatConversationsPerClient: env.CHAT_CONVERSATIONS_PER_CLIENT,
    metricsToken: env.METRICS_TOKEN,
    oidcProviders: env.oidcProviders,
  };
}
