import type { SiteConfig } from '../../common/site-config.ts';
import type { Database } from '../db/database.ts';
import type { Texts } from '../mail/code-mail.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Passwords } from './passwords.ts';

/** What the account routes work with; createApp builds it once. */
export interface AccountServices {
  db: Database;
  /** Keys the hashes of codes and of rate limit subjects. */
  secret: Buffer;
  trustedProxies: number;
  passwords: Passwords;
  mailer: Mailer;
  site: SiteConfig;
  /** The translation files, for mail in the visitor's language. */
  texts: Texts;
  /** A session unused for this long has lapsed. */
  sessionIdleSeconds: number;
}
