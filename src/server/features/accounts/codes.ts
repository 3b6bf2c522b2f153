import { CODE_LIFETIME_MINUTES, CODE_MAX_ATTEMPTS } from '#common/account-api.ts';
import type { Language } from '#common/languages.ts';
import { pagePath } from '#common/routes.ts';
import type { Deps } from '#server/deps.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import { queueMail } from '#server/platform/mail/mail-queue.ts';
import { keyedHash } from '#server/platform/secrets.ts';
import { codeMail } from './code-mail.ts';
import { type CodePurpose, storeCode, tryCode } from './code-queries.ts';
import { newCode } from './tokens.ts';

const codeHash = (secret: Buffer, purpose: CodePurpose, accountId: string, code: string) =>
  keyedHash(secret, 'code', purpose, accountId, code);

/**
 * Makes a new code for an account (the previous one stops working) and queues its mail in
 * `language`. Give it the transaction of the change that calls for the code: both happen or neither.
 */
export async function issueCode(
  deps: Pick<Deps, 'secret' | 'site' | 'texts'>,
  db: Queryable,
  purpose: CodePurpose,
  account: { id: string; email: string; name: string },
  language: Language,
): Promise<void> {
  const code = newCode();
  await storeCode(
    db,
    account.id,
    purpose,
    codeHash(deps.secret, purpose, account.id, code),
    CODE_LIFETIME_MINUTES * 60,
  );
  await queueMail(db, codeMail(deps.site, deps.texts, purpose, { ...account, language }, code, CODE_LIFETIME_MINUTES));
}

/**
 * A link that sets the account's password, for staff made by the command or invited by an admin:
 * a reset code (replacing any earlier one) that lives `lifetimeSeconds` and works once, carried in
 * the fragment of the forgotten-password page like the mailed links. The address counts as
 * confirmed once it is used.
 */
export async function issueSetPasswordLink(
  deps: Pick<Deps, 'secret' | 'site'>,
  db: Queryable,
  account: { id: string; email: string },
  language: Language,
  lifetimeSeconds: number,
): Promise<string> {
  const code = newCode();
  await storeCode(db, account.id, 'reset', codeHash(deps.secret, 'reset', account.id, code), lifetimeSeconds);
  const fragment = new URLSearchParams({ email: account.email, code });
  return `${deps.site.siteUrl}${pagePath(language, 'forgotPassword')}#${fragment}`;
}

/** Spends one try of the account's code; true when it matched, and then the code is used up. */
export function redeemCode(
  db: Queryable,
  secret: Buffer,
  purpose: CodePurpose,
  accountId: string,
  code: string,
): Promise<boolean> {
  return tryCode(db, accountId, purpose, codeHash(secret, purpose, accountId, code), CODE_MAX_ATTEMPTS);
}
