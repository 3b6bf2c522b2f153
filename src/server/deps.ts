import type { Language, Texts } from '#common/languages.ts';
import type { SiteConfig } from '#common/site-config.ts';
import type { RateLimiter } from '#server/http/rate-limit.ts';
import type { Database } from '#server/platform/db/database.ts';

/** What every feature is built with; app.ts makes it once. */
export interface Deps {
  db: Database;
  /** Keys the hashes the database keeps and signs visitor identifiers (see platform/secrets.ts). */
  secret: Buffer;
  /** Brand and public address, for mail and the Origin check. */
  site: SiteConfig;
  /** The translation files, for mail in the visitor's language. */
  texts: Texts;
  limiter: RateLimiter;
  settings: Settings;
}

/** The features' settings, from the environment (see platform/env.ts); tests change some. */
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
}
